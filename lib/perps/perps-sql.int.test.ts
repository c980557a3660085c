/**
 * Opening, closing and funding run as SQL statements with lib/perps/math written in SQL
 * (service/sql.ts). These property tests hold the stored results to the pure functions, digit
 * for digit: fill price, units, liquidation price, exit, PnL, fee, credit legs, funding.
 */
import fc from 'fast-check';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb, rowsOf } from '@/db/client';
import { balanceTransactions, perpMarkets, perpPositions } from '@/db/schema';
import { seedUser } from '@/test/factories';
import { callerOfUser } from '@/lib/auth/caller';
import { seedWorld } from '@/lib/world/seed/world';
import { dec } from '@/lib/money/decimal';
import { applyFunding, fundingPayment, fundingRate, quoteClose, quoteOpen, type TPerpSide } from './math';
import { closePosition } from './service/close-position';
import { openPosition } from './service/open-position';
import { fundingRateSql, liquidationPriceSql } from './service/sql';

const arbSide = fc.constantFrom<TPerpSide>('long', 'short');
const arbPrice = fc.integer({ min: 1_0000, max: 900_0000 }).map((c) => dec(c).div(1e4));
const arbDepth = fc.integer({ min: 1_000, max: 50_000_000 }).map(String);

beforeAll(async () => {
  await seedWorld(await getDb());
});

describe('SQL perps agree with lib/perps/math', () => {
  it('property: open and close store exactly what quoteOpen and quoteClose compute', async () => {
    const db = await getDb();
    const user = await seedUser({ balance: '1000000000' });
    await fc.assert(
      fc.asyncProperty(
        arbSide,
        arbPrice,
        arbPrice,
        arbDepth,
        fc.integer({ min: 100, max: 5_000_000_00 }).map((c) => dec(c).div(100).toFixed()),
        fc.integer({ min: 1, max: 100 }),
        async (side, mark, exitMark, depth, size, leverage) => {
          await db.update(perpMarkets).set({ markPrice: mark.toFixed(), depth }).where(eq(perpMarkets.ticker, 'NEXA'));
          const q = quoteOpen({ side, size, leverage, markPrice: mark, depth });
          const { position } = await openPosition({ caller: callerOfUser(user), ticker: 'NEXA', side, size, leverage });
          const [row] = await db.select().from(perpPositions).where(eq(perpPositions.id, position.id));
          expect(row!.entryPrice).toBe(q.entryPrice.toFixed(18));
          expect(row!.units).toBe(q.units.toFixed(18));
          expect(row!.liquidationPrice).toBe(q.liquidationPrice.toFixed(18));
          expect(row!.margin).toBe(q.margin.toFixed(8));
          if (row!.status !== 'open') return; // liquidated at once by an extreme draw: nothing left to close
          await db.update(perpMarkets).set({ markPrice: exitMark.toFixed() }).where(eq(perpMarkets.ticker, 'NEXA'));
          const c = quoteClose(row!, exitMark, depth);
          const closed = await closePosition({ caller: callerOfUser(user), positionId: position.id });
          const [after] = await db.select().from(perpPositions).where(eq(perpPositions.id, position.id));
          expect(after!.exitPrice).toBe(c.exitPrice.toFixed(18));
          expect(after!.realizedPnL).toBe(c.realizedPnL.toFixed(8));
          expect(after!.closeFee).toBe(c.fee.toFixed(8));
          expect(after!.netPnL).toBe(c.netPnL.toFixed(8));
          expect(closed.netPnL).toBe(c.netPnL.toNumber());
          const credits = await db.select().from(balanceTransactions).where(eq(balanceTransactions.referenceId, position.id));
          const closeRow = credits.find((r) => r.type === 'perp_close');
          if (c.closeCredit.isZero()) expect(closeRow).toBeUndefined();
          else expect(closeRow!.amount).toBe(c.closeCredit.toFixed(8));
        },
      ),
      { numRuns: 30 },
    );
  });

  it('property: the funding rate and the liquidation price after funding match', async () => {
    const db = await getDb();
    await fc.assert(
      fc.asyncProperty(arbSide, arbPrice, arbPrice, fc.integer({ min: 1, max: 100 }), async (side, mark, index, leverage) => {
        const q = quoteOpen({ side, size: 1000, leverage, markPrice: mark, depth: '1000000000' });
        const rate = fundingRate(mark, index);
        const payment = fundingPayment(side, q.units, mark, rate);
        const expected = applyFunding({ side, units: q.units, entryPrice: q.entryPrice, margin: q.margin, collateral: q.margin, openFee: q.fee, fundingPaid: 0 }, payment);
        const [r] = rowsOf<{ rate: string; liq: string }>(
          await db.execute(sql`
            select ${fundingRateSql(sql`${mark.toFixed()}::numeric`, sql`${index.toFixed()}::numeric`)} as rate,
              ${liquidationPriceSql(sql`${side}::text`, sql`${q.entryPrice.toFixed()}::numeric`, sql`${q.units.toFixed()}::numeric`, sql`${expected.collateral.toFixed()}::numeric`)} as liq`),
        );
        expect(dec(r!.rate).toFixed()).toBe(rate.toFixed());
        expect(dec(r!.liq).toFixed()).toBe(expected.liquidationPrice.toFixed());
      }),
      { numRuns: 60 },
    );
  });
});
