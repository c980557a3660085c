/**
 * The perps close computes the referral share in SQL (lib/referrals/sql.ts). This property test
 * holds the SQL twin to the pure referralShare digit for digit on the fees a close produces: money
 * (8 places, every term of least(fee, collateral + pnl) is truncated to 8), below 10^8. The
 * largest order (MAX_SIZE, 10^9) pays a fee of about 10^6, so this covers a 100x price move.
 * From about 10^8 on, PostgreSQL's numeric division keeps only 8 places (16 significant digits)
 * and rounds the half unit up, one unit more than the pure share: a known limit of the SQL twin,
 * left as it is so the close computes exactly what it did.
 */
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb, rowsOf } from '@/db/client';
import { dec } from '@/lib/money/decimal';
import { referralShare } from './share';
import { referralShareSql } from './sql';

const parties = { payerId: 'trader', referrerId: 'referrer' };

describe('SQL referral share agrees with referralShare', () => {
  it('property: trunc(fee / 2, 8) in SQL equals the pure share for money fees below 10^8', async () => {
    const db = await getDb();
    await fc.assert(
      fc.asyncProperty(
        fc.bigInt({ min: 0n, max: 10n ** 16n - 1n }),
        async (units) => {
          const fee = dec(units.toString()).div('1e8');
          const [r] = rowsOf<{ share: string }>(await db.execute(sql`select ${referralShareSql(sql`${fee.toFixed()}::numeric`)} as share`));
          expect(dec(r!.share).toFixed()).toBe(referralShare(fee, parties).share.toFixed());
        },
      ),
      { numRuns: 200 },
    );
  });

  it('examples: odd units round down, zero stays zero', async () => {
    const db = await getDb();
    for (const fee of ['0', '0.00000001', '0.00000003', '0.1', '123.45678901', '99999999.99999999']) {
      const [r] = rowsOf<{ share: string }>(await db.execute(sql`select ${referralShareSql(sql`${fee}::numeric`)} as share`));
      expect(dec(r!.share).toFixed(), fee).toBe(referralShare(fee, parties).share.toFixed());
    }
  });
});
