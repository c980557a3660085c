/**
 * The buy runs as one SQL statement with the CPMM formula written in SQL (service/buy-shares.ts).
 * This property test holds it to the pure cpmm.quoteBuy: same shares, same reserves, same fees.
 */
import fc from 'fast-check';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { markets } from '@/db/schema';
import { seedUser } from '@/test/factories';
import { callerOfUser } from '@/lib/auth/caller';
import { dec } from '@/lib/money/decimal';
import { quoteBuy, toPool } from './cpmm';
import { buyShares } from './service/buy-shares';

describe('SQL buy agrees with cpmm.quoteBuy', () => {
  it('property: shares, reserves and fees match the pure function to the last stored digit', async () => {
    const user = await seedUser({ balance: '100000000' });
    const db = await getDb();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 10, max: 5_000_000 }),
        fc.integer({ min: 10, max: 5_000_000 }),
        fc.constantFrom('YES' as const, 'NO' as const),
        fc.integer({ min: 1_00000000, max: 20_000_00000000 }),
        async (yes, no, outcome, units) => {
          const amount = dec(units).div(1e8).toFixed();
          const [m] = await db
            .insert(markets)
            .values({
              text: 'Property market',
              yesShares: String(yes),
              noShares: String(no),
              liquidity: '1000',
              resolutionDate: new Date(Date.now() + 86_400_000),
              createdAt: new Date(),
            })
            .returning();
          const expected = quoteBuy(toPool(m!), outcome, amount);
          const got = await buyShares({ caller: callerOfUser(user), marketId: m!.id, outcome, amount });
          const [after] = await db.select().from(markets).where(eq(markets.id, m!.id));
          const pool = toPool(after!);
          expect(pool.yesReserve.eq(expected.pool.yesReserve)).toBe(true);
          expect(pool.noReserve.eq(expected.pool.noReserve)).toBe(true);
          expect(got.shares).toBe(expected.shares.toNumber());
          expect(got.fees.total).toBe(expected.fees.total.toNumber());
        },
      ),
      { numRuns: 25 },
    );
  });
});
