import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dec } from '@/lib/money/decimal';
import {
  FUNDING_RATE_CAP,
  MAINTENANCE_RATE,
  MAX_IMPACT,
  accruedFunding,
  applyFunding,
  duePeriods,
  effectiveLiquidationPrice,
  fillPrice,
  fundingIndexStep,
  fundingPayment,
  fundingPeriodStart,
  fundingRate,
  isLiquidatable,
  liquidationKey,
  liquidationPrice,
  liquidationShift,
  markToMarket,
  orderProblem,
  quoteClose,
  quoteOpen,
  withAccruedFunding,
  type TPerpSide,
} from './math';

const arbSide = fc.constantFrom<TPerpSide>('long', 'short');
const arbPrice = fc.integer({ min: 1_0000, max: 5000_0000 }).map((c) => dec(c).div(1e4));
const arbSize = fc.integer({ min: 1_00, max: 2_000_000_00 }).map((c) => dec(c).div(100));
const arbLeverage = fc.integer({ min: 1, max: 100 });
const arbDepth = fc.constantFrom(dec(100_000), dec(5_000_000), dec(1e9));

const openState = (side: TPerpSide, q: ReturnType<typeof quoteOpen>) => ({
  side,
  units: q.units,
  entryPrice: q.entryPrice,
  margin: q.margin,
  collateral: q.margin,
  openFee: q.fee,
});

describe('perps examples', () => {
  it('opens a 10x long of 1000 at 100: margin 100, fee 1, fills above the mark', () => {
    const q = quoteOpen({ side: 'long', size: 1000, leverage: 10, markPrice: 100, depth: 1_000_000 });
    expect(q.margin.toFixed()).toBe('100');
    expect(q.fee.toFixed()).toBe('1');
    expect(q.cost.toFixed()).toBe('101');
    expect(q.entryPrice.toFixed()).toBe('100.1'); // impact 1000 / 1e6 = 0.1%
    expect(q.units.toFixed(6)).toBe('9.990010');
    // entry·(1 − 1/L)/(1 − m) = 100.1 · 0.9 / 0.995
    expect(q.liquidationPrice.toNumber()).toBeCloseTo((100.1 * 0.9) / 0.995, 9);
  });

  it('gives a short the mirrored liquidation price entry·(1 + 1/L)/(1 + m)', () => {
    const q = quoteOpen({ side: 'short', size: 1000, leverage: 20, markPrice: 50, depth: 1e24 });
    expect(q.liquidationPrice.toNumber()).toBeCloseTo((50 * 1.05) / 1.005, 9);
  });

  it('caps a trade impact at 1%', () => {
    expect(fillPrice(100, 'long', 'open', 1e9, 1000).toFixed()).toBe(dec(100).times(dec(1).plus(MAX_IMPACT)).toFixed());
    expect(fillPrice(100, 'long', 'close', 1e9, 1000).toFixed()).toBe('99');
  });

  it('never liquidates a 1x long', () => {
    const q = quoteOpen({ side: 'long', size: 100, leverage: 1, markPrice: 10, depth: 1e6 });
    expect(q.liquidationPrice.toFixed()).toBe('0');
  });

  it('closes a winner: price PnL, fee, both ledger legs and net PnL', () => {
    const q = quoteOpen({ side: 'long', size: 1000, leverage: 10, markPrice: 100, depth: 1e24 });
    const c = quoteClose(openState('long', q), 110, 1e24);
    expect(c.exitPrice.toFixed()).toBe('110');
    expect(c.realizedPnL.toFixed()).toBe('100');
    expect(c.fee.toFixed()).toBe('1.1');
    expect(c.closeCredit.toFixed()).toBe('198.9');
    expect(c.fundingCredit.toFixed()).toBe('0');
    expect(c.netPnL.toFixed()).toBe('97.9');
  });

  it('settles funding on close: paid funding comes off the credit, never below zero', () => {
    const q = quoteOpen({ side: 'long', size: 1000, leverage: 10, markPrice: 100, depth: 1e24 });
    const paid = { ...openState('long', q), collateral: dec(80) };
    const c = quoteClose(paid, 100, 1e24);
    expect(c.fundingPaid.toFixed()).toBe('20');
    expect(c.closeCredit.toFixed()).toBe('99');
    expect(c.fundingCredit.toFixed()).toBe('-20');
    const ruined = quoteClose({ ...paid, collateral: dec(-5) }, 100, 1e24);
    expect(ruined.total.toFixed()).toBe('0');
    expect(ruined.closeCredit.plus(ruined.fundingCredit).toFixed()).toBe('0');
  });

  it('computes funding from the premium beyond ±0.05% and the crowding, within ±0.1% (funding-rate.test.ts has more)', () => {
    const balanced = { openInterestLong: 5000, openInterestShort: 5000 };
    expect(fundingRate({ markPrice: 101, indexPrice: 100, ...balanced }).toFixed()).toBe('0.001');
    expect(fundingRate({ markPrice: 100, indexPrice: 100, ...balanced }).toFixed()).toBe('0');
    expect(fundingRate({ markPrice: '100.08', indexPrice: 100, ...balanced }).toFixed()).toBe('0.0003');
    expect(fundingRate({ markPrice: 50, indexPrice: 100, ...balanced }).toFixed()).toBe(FUNDING_RATE_CAP.negated().toFixed());
    expect(fundingPayment('long', 10, 100, '0.001').toFixed()).toBe('1');
    expect(fundingPayment('short', 10, 100, '0.001').toFixed()).toBe('-1');
  });

  it('accrues funding as units × the index difference: a long pays what a short of equal units receives', () => {
    // Three periods at mark 100 and rate 0.1%: the index moves by 0.1 each.
    const step = fundingIndexStep(100, '0.001');
    expect(step.toFixed()).toBe('0.1');
    const index = step.times(3).plus('2.5');
    expect(accruedFunding('long', 10, index, '2.5').toFixed()).toBe('3');
    expect(accruedFunding('short', 10, index, '2.5').toFixed()).toBe('-3');
    expect(fundingPayment('long', 10, 100, '0.001').times(3).toFixed()).toBe('3');
    // Opened at the current index: nothing accrued.
    expect(accruedFunding('long', 10, index, index).isZero()).toBe(true);
  });

  it('moves the liquidation price by index / (1 ∓ m): the example long of 10x at 100.1', () => {
    const q = quoteOpen({ side: 'long', size: 1000, leverage: 10, markPrice: 100, depth: 1_000_000 });
    const p = { side: 'long' as const, units: q.units, collateral: q.margin, fundingPaid: 0, liquidationPrice: q.liquidationPrice, fundingIndexEntry: '7' };
    // Nothing accrued: exactly the stored price.
    expect(effectiveLiquidationPrice(p, '7').toFixed()).toBe(q.liquidationPrice.toFixed());
    expect(liquidationKey('long', q.liquidationPrice, '7').toFixed()).toBe(q.liquidationPrice.minus(liquidationShift('long', 7)).toFixed());
    // The index rose by 2 per unit: about 19.98 paid, the liquidation price 2 / 0.995 higher.
    const f = withAccruedFunding(p, '9');
    expect(f.accrued.toFixed()).toBe(q.units.times(2).toDecimalPlaces(8, 1).toFixed());
    expect(f.collateral.toFixed()).toBe(q.margin.minus(f.accrued).toFixed());
    expect(f.fundingPaid.toFixed()).toBe(f.accrued.toFixed());
    expect(f.liquidationPrice.toNumber()).toBeCloseTo(q.liquidationPrice.toNumber() + 2 / 0.995, 9);
    // A short receiving the same rises away from the mark by 2 / 1.005.
    const s = quoteOpen({ side: 'short', size: 1000, leverage: 10, markPrice: 100, depth: 1_000_000 });
    const shortAfter = effectiveLiquidationPrice({ side: 'short', liquidationPrice: s.liquidationPrice, fundingIndexEntry: 0 }, 2);
    expect(shortAfter.toNumber()).toBeCloseTo(s.liquidationPrice.toNumber() + 2 / 1.005, 9);
  });

  it('lets funding alone liquidate: the mark unchanged, the index past the collateral', () => {
    const q = quoteOpen({ side: 'long', size: 1000, leverage: 2, markPrice: 100, depth: 1e24 });
    const p = { side: 'long' as const, liquidationPrice: q.liquidationPrice, fundingIndexEntry: 0 };
    expect(isLiquidatable('long', 100, effectiveLiquidationPrice(p, 0))).toBe(false);
    // Collateral 500 on 10 units: an index of ~50 per unit eats it down to the maintenance margin.
    expect(isLiquidatable('long', 100, effectiveLiquidationPrice(p, 49))).toBe(false);
    expect(isLiquidatable('long', 100, effectiveLiquidationPrice(p, 50))).toBe(true);
    // A 1x long (no liquidation price) is liquidated once funding has eaten its collateral.
    const one = quoteOpen({ side: 'long', size: 1000, leverage: 1, markPrice: 100, depth: 1e24 });
    expect(one.liquidationPrice.isZero()).toBe(true);
    expect(isLiquidatable('long', 100, effectiveLiquidationPrice({ side: 'long', liquidationPrice: 0, fundingIndexEntry: 0 }, 99.6))).toBe(true);
  });

  it('lists the due funding periods at 00:00, 08:00 and 16:00 UTC', () => {
    const at = new Date('2026-01-01T05:00:00Z');
    expect(fundingPeriodStart(at).toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(duePeriods(at, new Date('2026-01-02T05:00:00Z')).map((d) => d.toISOString())).toEqual([
      '2026-01-01T08:00:00.000Z',
      '2026-01-01T16:00:00.000Z',
      '2026-01-02T00:00:00.000Z',
    ]);
    expect(duePeriods(at, new Date('2026-01-01T07:59:59Z'))).toEqual([]);
  });

  it('rejects bad orders with a reason', () => {
    expect(orderProblem({ size: 100, leverage: 10 })).toBeNull();
    expect(orderProblem({ size: 0.5, leverage: 10 })).toMatch(/size/);
    expect(orderProblem({ size: 100, leverage: 101 })).toMatch(/leverage/);
    expect(orderProblem({ size: 100, leverage: 0.5 })).toMatch(/leverage/);
  });
});

describe('perps properties', () => {
  it('opening and closing at once never makes money, at any leverage', () => {
    fc.assert(
      fc.property(arbSide, arbPrice, arbSize, arbLeverage, arbDepth, (side, mark, size, lev, depth) => {
        const q = quoteOpen({ side, size, leverage: lev, markPrice: mark, depth });
        const c = quoteClose(openState(side, q), q.markAfter, depth);
        expect(c.total.lt(q.cost)).toBe(true);
        expect(c.netPnL.isNegative()).toBe(true);
      }),
    );
  });

  it('the liquidation price is exactly where equity meets maintenance', () => {
    fc.assert(
      fc.property(arbSide, arbPrice, arbSize, fc.integer({ min: 2, max: 100 }), (side, mark, size, lev) => {
        const q = quoteOpen({ side, size, leverage: lev, markPrice: mark, depth: 1e24 });
        const liq = q.liquidationPrice;
        const st = openState(side, q);
        // Unrounded equity at the liquidation price equals maintenance (up to the price truncation).
        const equity = q.margin.plus(q.units.times(liq.minus(q.entryPrice)).times(side === 'long' ? 1 : -1));
        const maintenance = q.units.times(liq).times(MAINTENANCE_RATE);
        expect(equity.minus(maintenance).abs().lte(q.units.times(1e-17))).toBe(true);
        expect(isLiquidatable(side, liq, liq)).toBe(true);
        const safe = side === 'long' ? liq.times(1.001) : liq.times(0.999);
        expect(isLiquidatable(side, safe, liq)).toBe(false);
        expect(markToMarket(st, safe).equity.gt(0)).toBe(true);
      }),
    );
  });

  it('funding sums to zero between equal long and short notional', () => {
    fc.assert(
      fc.property(arbPrice, arbPrice, arbSize, arbSize, arbSize, (mark, index, units, oiLong, oiShort) => {
        const rate = fundingRate({ markPrice: mark, indexPrice: index, openInterestLong: oiLong, openInterestShort: oiShort });
        expect(rate.abs().lte(FUNDING_RATE_CAP)).toBe(true);
        expect(fundingPayment('long', units, mark, rate).plus(fundingPayment('short', units, mark, rate)).isZero()).toBe(true);
      }),
    );
  });

  it('counts equity once: paid funding lowers collateral and the credit by the same amount', () => {
    fc.assert(
      fc.property(arbSide, arbPrice, arbSize, arbLeverage, fc.integer({ min: 0, max: 5000 }), (side, mark, size, lev, bp) => {
        const q = quoteOpen({ side, size, leverage: lev, markPrice: mark, depth: 1e24 });
        const st = openState(side, q);
        const payment = q.margin.times(bp).div(10_000).toDecimalPlaces(8, 1);
        const after = applyFunding({ ...st, fundingPaid: 0 }, payment);
        const before = quoteClose(st, mark, 1e24);
        const paid = quoteClose({ ...st, collateral: after.collateral }, mark, 1e24);
        // Same closing price and fee; the funding comes off exactly once (unless the credit hits zero).
        if (paid.total.gt(0)) expect(before.total.minus(paid.total).toFixed()).toBe(payment.toFixed());
        expect(paid.closeCredit.toFixed()).toBe(before.closeCredit.toFixed());
        expect(after.fundingPaid.toFixed()).toBe(payment.toFixed());
        // Paying funding moves the liquidation price towards the mark.
        if (payment.gt(0) && !after.liquidationPrice.isZero()) {
          expect(side === 'long' ? after.liquidationPrice.gte(q.liquidationPrice) : after.liquidationPrice.lte(q.liquidationPrice)).toBe(true);
        }
      }),
    );
  });

  const arbIndex = fc.integer({ min: -50_000_000, max: 50_000_000 }).map((c) => dec(c).div(1e6));
  const arbPeriods = fc.array(fc.tuple(arbPrice, arbPrice), { minLength: 1, maxLength: 12 });

  it('funding accrued on the index sums to zero between a long and a short of equal units', () => {
    fc.assert(
      fc.property(arbSize, arbIndex, arbIndex, (units, entry, index) => {
        expect(accruedFunding('long', units, index, entry).plus(accruedFunding('short', units, index, entry)).isZero()).toBe(true);
      }),
    );
  });

  it('funding accrued on the index is the sum of the per-period payments, within their truncation', () => {
    fc.assert(
      fc.property(arbSide, arbSize, arbIndex, arbPeriods, (side, units, entry, periods) => {
        let index = dec(entry);
        let paid = dec(0);
        for (const [mark, indexPrice] of periods) {
          // A book crowded one way or the other, by the prices drawn.
          const rate = fundingRate({ markPrice: mark, indexPrice, openInterestLong: indexPrice, openInterestShort: mark });
          index = index.plus(fundingIndexStep(mark, rate));
          paid = paid.plus(fundingPayment(side, units, mark, rate));
        }
        const accrued = accruedFunding(side, units, index, entry);
        // Each payment truncates below 10⁻⁸, each index step below 10⁻¹⁸ per unit, the accrual once more.
        const bound = dec(periods.length + 1).times('1e-8').plus(dec(units).times(periods.length).times('1e-18'));
        expect(accrued.minus(paid).abs().lte(bound)).toBe(true);
      }),
    );
  });

  it('the effective liquidation price is liquidationPrice() of the funded collateral, and the sweep key finds it', () => {
    fc.assert(
      fc.property(arbSide, arbPrice, arbSize, arbLeverage, arbIndex, fc.integer({ min: -2_000_000, max: 2_000_000 }), (side, mark, size, lev, entry, moveBp) => {
        const q = quoteOpen({ side, size, leverage: lev, markPrice: mark, depth: 1e24 });
        // An index move of up to ±2 × the mark per unit (enough to eat any collateral).
        const index = dec(entry).plus(mark.times(moveBp).div(1_000_000).toDecimalPlaces(18, 1));
        const p = { side, units: q.units, collateral: q.margin, fundingPaid: 0, liquidationPrice: q.liquidationPrice, fundingIndexEntry: entry };
        const f = withAccruedFunding(p, index);
        const recomputed = applyFunding({ ...openState(side, q), fundingPaid: 0 }, f.accrued);
        expect(recomputed.collateral.toFixed()).toBe(f.collateral.toFixed());
        expect(recomputed.fundingPaid.toFixed()).toBe(f.fundingPaid.toFixed());
        const m = side === 'long' ? dec(1).minus(MAINTENANCE_RATE) : dec(1).plus(MAINTENANCE_RATE);
        // The accrual's truncation (< 10⁻⁸ of collateral), the units' (a 1x long's stored price is clipped at 0) and the 18th places.
        const bound = dec('1e-8').plus(q.entryPrice.times('1e-18')).div(q.units.times(m)).plus('1e-16');
        expect(f.liquidationPrice.minus(recomputed.liquidationPrice).abs().lte(bound)).toBe(true);
        // Exactly the stored price while nothing has accrued.
        expect(effectiveLiquidationPrice(p, entry).toFixed()).toBe(q.liquidationPrice.toFixed());
        // The sweep's index condition is isLiquidatable at the effective price, for any mark.
        const key = liquidationKey(side, q.liquidationPrice, entry);
        for (const probe of [mark, f.liquidationPrice, f.liquidationPrice.plus('1e-18'), f.liquidationPrice.minus('1e-18')]) {
          if (probe.lte(0)) continue;
          const reach = probe.minus(liquidationShift(side, index));
          expect(side === 'long' ? key.gte(reach) : key.lte(reach)).toBe(isLiquidatable(side, probe, f.liquidationPrice));
        }
        // And liquidationPrice() itself is what the stored price was computed with.
        expect(liquidationPrice({ side, entryPrice: q.entryPrice, units: q.units, collateral: q.margin }).toFixed()).toBe(q.liquidationPrice.toFixed());
      }),
    );
  });
});
