/**
 * Opening, closing and funding run as SQL statements with lib/perps/math written in SQL
 * (service/sql.ts). These property tests hold the stored results to the pure functions, digit
 * for digit: fill price, units, liquidation price, entry index and liquidation key, exit, PnL,
 * fee, credit legs, the funding accrued on the index and settled on close, the funding rate (premium
 * and open-interest imbalance), the index step and the effective liquidation price.
 */
import fc from 'fast-check';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb, rowsOf } from '@/db/client';
import { balanceTransactions, perpMarkets, perpOrders, perpPositions } from '@/db/schema';
import { seedUser } from '@/test/factories';
import { callerOfUser } from '@/lib/auth/caller';
import { seedWorld } from '@/lib/world/seed/world';
import { dec } from '@/lib/money/decimal';
import {
  accruedFunding,
  applyFunding,
  effectiveLiquidationPrice,
  fundingIndexStep,
  fundingRate,
  liquidationKey,
  liquidationShift,
  quoteClose,
  quoteOpen,
  withAccruedFunding,
  type TPerpSide,
} from './math';
import { closePosition } from './service/close-position';
import { openPosition } from './service/open-position';
import {
  accruedFundingSql,
  effectiveLiquidationPriceSql,
  fundingIndexStepSql,
  fundingRateSql,
  liquidationPriceSql,
  liquidationShiftSql,
  sweepDueCte,
} from './service/sql';
import { isTriggered } from './orders';

const arbSide = fc.constantFrom<TPerpSide>('long', 'short');
const arbPrice = fc.integer({ min: 1_0000, max: 900_0000 }).map((c) => dec(c).div(1e4));
const arbDepth = fc.integer({ min: 1_000, max: 50_000_000 }).map(String);
/** A funding index (per unit, 18 places), and a move of it of up to ±5 per unit. */
const arbIndex = fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }).map((c) => dec(c.toString()).div('1e18'));
/** A side's open interest: 0, or up to 100 million with 8 places (the listing's trunc(units × mark, 8)). */
const arbOi = fc.oneof(fc.constant(dec(0)), fc.bigInt({ min: 1n, max: 10n ** 16n }).map((c) => dec(c.toString()).div(1e8)));
const arbMove = fc.bigInt({ min: -(5n * 10n ** 18n), max: 5n * 10n ** 18n }).map((c) => dec(c.toString()).div('1e18'));

beforeAll(async () => {
  await seedWorld(await getDb());
});

describe('SQL perps agree with lib/perps/math', () => {
  it('property: open and close store exactly what quoteOpen, the funding index and quoteClose compute', async () => {
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
        arbIndex,
        arbMove,
        async (side, mark, exitMark, depth, size, leverage, entryIndex, move) => {
          await db.update(perpMarkets).set({ markPrice: mark.toFixed(), depth, fundingIndex: entryIndex.toFixed() }).where(eq(perpMarkets.ticker, 'NEXA'));
          const q = quoteOpen({ side, size, leverage, markPrice: mark, depth });
          const { position } = await openPosition({ caller: callerOfUser(user), ticker: 'NEXA', side, size, leverage });
          const [row] = await db.select().from(perpPositions).where(eq(perpPositions.id, position.id));
          expect(row!.entryPrice).toBe(q.entryPrice.toFixed(18));
          expect(row!.units).toBe(q.units.toFixed(18));
          expect(row!.liquidationPrice).toBe(q.liquidationPrice.toFixed(18));
          expect(row!.margin).toBe(q.margin.toFixed(8));
          // It enters at the ticker's index; the generated key is liquidationKey().
          expect(row!.fundingIndexEntry).toBe(entryIndex.toFixed(18));
          expect(row!.liquidationKey).toBe(liquidationKey(side, q.liquidationPrice, entryIndex).toFixed(18));
          if (row!.status !== 'open') return; // liquidated at once by an extreme draw: nothing left to close
          // Funding periods move the index; the close settles the accrual.
          const index = entryIndex.plus(move);
          await db.update(perpMarkets).set({ markPrice: exitMark.toFixed(), fundingIndex: index.toFixed() }).where(eq(perpMarkets.ticker, 'NEXA'));
          const funded = withAccruedFunding(row!, index);
          const c = quoteClose({ ...row!, collateral: funded.collateral }, exitMark, depth);
          const closed = await closePosition({ caller: callerOfUser(user), positionId: position.id });
          const [after] = await db.select().from(perpPositions).where(eq(perpPositions.id, position.id));
          expect(after!.exitPrice).toBe(c.exitPrice.toFixed(18));
          expect(after!.realizedPnL).toBe(c.realizedPnL.toFixed(8));
          expect(after!.closeFee).toBe(c.fee.toFixed(8));
          expect(after!.netPnL).toBe(c.netPnL.toFixed(8));
          expect(after!.collateral).toBe(funded.collateral.toFixed(8));
          expect(after!.fundingPaid).toBe(funded.fundingPaid.toFixed(8));
          expect(after!.fundingPaid).toBe(accruedFunding(side, q.units, index, entryIndex).toFixed(8));
          expect(closed.netPnL).toBe(c.netPnL.toNumber());
          expect(closed.fundingPaid).toBe(funded.fundingPaid.toNumber());
          const credits = await db.select().from(balanceTransactions).where(eq(balanceTransactions.referenceId, position.id));
          const closeRow = credits.find((r) => r.type === 'perp_close');
          if (c.closeCredit.isZero()) expect(closeRow).toBeUndefined();
          else expect(closeRow!.amount).toBe(c.closeCredit.toFixed(8));
          const fundingRow = credits.find((r) => r.type === 'funding_paid');
          if (c.fundingCredit.isZero()) expect(fundingRow).toBeUndefined();
          else expect(fundingRow!.amount).toBe(c.fundingCredit.toFixed(8));
        },
      ),
      { numRuns: 30 },
    );
    await db.update(perpMarkets).set({ fundingIndex: '0' }).where(eq(perpMarkets.ticker, 'NEXA'));
  });

  it('property: the funding rate, the index step, the accrual and the liquidation prices with funding match', async () => {
    const db = await getDb();
    await fc.assert(
      fc.asyncProperty(
        arbSide,
        arbPrice,
        arbPrice,
        fc.integer({ min: 1, max: 100 }),
        arbIndex,
        arbMove,
        arbOi,
        arbOi,
        async (side, mark, indexPrice, leverage, entry, move, oiLong, oiShort) => {
          const q = quoteOpen({ side, size: 1000, leverage, markPrice: mark, depth: '1000000000' });
          const rate = fundingRate({ markPrice: mark, indexPrice, openInterestLong: oiLong, openInterestShort: oiShort });
          const index = entry.plus(move);
          const accrued = accruedFunding(side, q.units, index, entry);
          const expected = applyFunding({ side, units: q.units, entryPrice: q.entryPrice, margin: q.margin, collateral: q.margin, openFee: q.fee, fundingPaid: 0 }, accrued);
          const key = liquidationKey(side, q.liquidationPrice, entry);
          const n = (d: { toFixed(): string }) => sql`${d.toFixed()}::numeric`;
          const [r] = rowsOf<{ rate: string; step: string; accrued: string; liq: string; shift: string; effective: string }>(
            await db.execute(sql`
              select ${fundingRateSql(n(mark), n(indexPrice), n(oiLong), n(oiShort))} as rate,
                ${fundingIndexStepSql(n(mark), n(rate))} as step,
                ${accruedFundingSql(sql`${side}::text`, n(q.units), n(index), n(entry))} as accrued,
                ${liquidationPriceSql(sql`${side}::text`, n(q.entryPrice), n(q.units), n(expected.collateral))} as liq,
                ${liquidationShiftSql(sql`${side}::text`, n(index))} as shift,
                ${effectiveLiquidationPriceSql(sql`${side}::text`, n(key), n(index))} as effective`),
          );
          expect(dec(r!.rate).toFixed()).toBe(rate.toFixed());
          expect(dec(r!.step).toFixed()).toBe(fundingIndexStep(mark, rate).toFixed());
          expect(dec(r!.accrued).toFixed()).toBe(accrued.toFixed());
          expect(dec(r!.liq).toFixed()).toBe(expected.liquidationPrice.toFixed());
          expect(dec(r!.shift).toFixed()).toBe(liquidationShift(side, index).toFixed());
          expect(dec(r!.effective).toFixed()).toBe(
            effectiveLiquidationPrice({ side, liquidationPrice: q.liquidationPrice, fundingIndexEntry: entry }, index).toFixed(),
          );
        },
      ),
      { numRuns: 60 },
    );
  });

  it('property: the funding rate matches near the index too, where the premium clamp and the crowding decide it', async () => {
    const db = await getDb();
    const n = (d: { toFixed(): string }) => sql`${d.toFixed()}::numeric`;
    await fc.assert(
      fc.asyncProperty(arbPrice, fc.integer({ min: -1500, max: 1500 }), arbOi, arbOi, async (indexPrice, premiumPpm, oiLong, oiShort) => {
        // Marks within ±0.15% of the index, of 18 places as trades leave them.
        const mark = indexPrice.times(dec(premiumPpm).div(1e6).plus(1)).plus('0.000000000000000123');
        const rate = fundingRate({ markPrice: mark, indexPrice, openInterestLong: oiLong, openInterestShort: oiShort });
        const [r] = rowsOf<{ rate: string }>(await db.execute(sql`select ${fundingRateSql(n(mark), n(indexPrice), n(oiLong), n(oiShort))} as rate`));
        expect(dec(r!.rate).toFixed()).toBe(rate.toFixed());
      }),
      { numRuns: 150 },
    );
    // An empty book and a balanced one at the index pay exactly nothing in SQL as well.
    const [z] = rowsOf<{ empty: string; balanced: string }>(
      await db.execute(sql`select ${fundingRateSql(n(dec(100)), n(dec(100)), n(dec(0)), n(dec(0)))} as empty,
        ${fundingRateSql(n(dec('100.04')), n(dec(100)), n(dec(5000)), n(dec(5000)))} as balanced`),
    );
    expect([dec(z!.empty).toFixed(), dec(z!.balanced).toFixed()]).toEqual(['0', '0']);
  });
});

describe('the sweep after a trade (sweep_due)', () => {
  it("a fill that reaches a position liquidates it at once; a fill that reaches nothing leaves every position open", async () => {
    const db = await getDb();
    await db.update(perpMarkets).set({ markPrice: '100', depth: '10000000', fundingIndex: '0' }).where(eq(perpMarkets.ticker, 'HELX'));
    const [risky, safe, mover] = [await seedUser({ balance: '100000' }), await seedUser({ balance: '100000' }), await seedUser({ balance: '1000000' })];
    const a = await openPosition({ caller: callerOfUser(risky), ticker: 'HELX', side: 'long', size: '100', leverage: '100' });
    const b = await openPosition({ caller: callerOfUser(safe), ticker: 'HELX', side: 'long', size: '100', leverage: '2' });
    const status = async (id: string) => (await db.select({ s: perpPositions.status }).from(perpPositions).where(eq(perpPositions.id, id)))[0]!.s;
    // A small short: the mark moves 0.01%, short of the 100x long's liquidation price (about 0.5% away).
    await openPosition({ caller: callerOfUser(mover), ticker: 'HELX', side: 'short', size: '1', leverage: '1' });
    expect(await status(a.position.id)).toBe('open');
    // A short at the 1% impact cap: its fill passes the 100x long's liquidation price; the sweep after it liquidates it.
    await openPosition({ caller: callerOfUser(mover), ticker: 'HELX', side: 'short', size: '100000', leverage: '1' });
    expect(await status(a.position.id)).toBe('liquidated');
    expect(await status(b.position.id)).toBe('open');
  });
});

describe('sweep_due agrees with the positions and orders a mark reaches', () => {
  it("property: due exactly when the mark reaches an open position's key (mark − liquidationShift(index)) or fires an open order (isTriggered)", async () => {
    const db = await getDb();
    const ticker = 'HELX';
    // A ticker of its own state: open longs and shorts of several leverages, and open orders both ways.
    await db.update(perpMarkets).set({ markPrice: '50', depth: '100000000', fundingIndex: '0.25' }).where(eq(perpMarkets.ticker, ticker));
    const trader = await seedUser({ balance: '10000000' });
    for (const [side, leverage] of [['long', 3], ['long', 40], ['short', 5], ['short', 60]] as const) {
      await openPosition({ caller: callerOfUser(trader), ticker, side, size: '100', leverage });
    }
    const at = new Date();
    for (const [firesWhen, trigger] of [['below', '41.5'], ['above', '58.25']] as const) {
      await db.insert(perpOrders).values({
        id: crypto.randomUUID(),
        userId: trader.id,
        ticker,
        type: 'limit',
        side: 'long',
        size: '10',
        leverage: '2',
        triggerPrice: trigger,
        firesWhen,
        status: 'open',
        createdAt: at,
        updatedAt: at,
      });
    }
    const positions = await db.select().from(perpPositions).where(and(eq(perpPositions.ticker, ticker), eq(perpPositions.status, 'open')));
    const orders = await db.select().from(perpOrders).where(and(eq(perpOrders.ticker, ticker), eq(perpOrders.status, 'open')));
    const arbMark = fc.integer({ min: 1, max: 120_0000 }).map((c) => dec(c).div(1e4));
    const arbDueIndex = fc.integer({ min: -5_0000, max: 5_0000 }).map((c) => dec(c).div(1e4));
    await fc.assert(
      fc.asyncProperty(arbMark, arbDueIndex, async (mark, index) => {
        // `locked` as the trade's lock saw the row (its version current), `moved` with the new mark.
        const [row] = rowsOf<{ due: boolean }>(
          await db.execute(sql`with mkt as (
              select ticker, ${index.toFixed()}::numeric as funding_index, xmin::text as version from ${perpMarkets} where ticker = ${ticker}
            ),
            moved as (select ticker, ${mark.toFixed()}::numeric as mark_price from mkt),
            ${sweepDueCte({ locked: 'mkt', moved: 'moved' })}
            select due from sweep_due`),
        );
        const expected =
          positions.some((p) => {
            const reach = mark.minus(liquidationShift(p.side, index));
            return p.side === 'long' ? dec(p.liquidationKey).gte(reach) : dec(p.liquidationKey).lte(reach);
          }) || orders.some((o) => isTriggered({ firesWhen: o.firesWhen as 'below' | 'above', triggerPrice: o.triggerPrice }, mark));
        expect(row!.due).toBe(expected);
      }),
      { numRuns: 60 },
    );
  });
});
