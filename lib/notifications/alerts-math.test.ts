import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAINTENANCE_RATE, effectiveLiquidationPrice, liquidationPrice, quoteOpen } from '@/lib/perps/math';
import { dec } from '@/lib/money/decimal';
import { LIQUIDATION_RESET_RATIO, LIQUIDATION_WARN_RATIO, hasRecovered, isBigMove, isWarningDue, marginBufferRatio, markAtRatio, priceMoveForSide } from './alerts-math';

describe('isBigMove', () => {
  it('is due at 10 points either way, not at 9.9', () => {
    expect(isBigMove(0.41, 0.51)).toBe(true);
    expect(isBigMove(0.6, 0.5)).toBe(true);
    expect(isBigMove(0.5, 0.599)).toBe(false);
  });
  it('is symmetric', () => {
    fc.assert(fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (a, b) => isBigMove(a, b) === isBigMove(b, a)));
  });
});

describe('priceMoveForSide', () => {
  it('a fall from 74% to 50% is up 24 points for a NO holder and down for a YES holder', () => {
    expect(priceMoveForSide(0.74, 0.5, 'NO')).toBeCloseTo(0.24, 12);
    expect(priceMoveForSide(0.74, 0.5, 'YES')).toBeCloseTo(-0.24, 12);
    expect(priceMoveForSide(0.5, 0.6, 'YES')).toBeCloseTo(0.1, 12);
  });
  it('the two sides always see the same move with opposite signs', () => {
    const p = fc.double({ min: 0, max: 1, noNaN: true });
    fc.assert(fc.property(p, p, (a, b) => priceMoveForSide(a, b, 'YES') === -priceMoveForSide(a, b, 'NO')));
  });
});

/** A position as lib/perps opens it, at a mark of 100 and depth 1,000,000. */
const opened = (side: 'long' | 'short', size: number, leverage: number) => {
  const q = quoteOpen({ side, size, leverage, markPrice: 100, depth: 1_000_000 });
  const liq = liquidationPrice({ side, entryPrice: q.entryPrice, units: q.units, collateral: q.margin });
  return { maintenanceRate: MAINTENANCE_RATE.toNumber(), side, units: q.units.toNumber(), size: q.size.toNumber(), margin: q.margin.toNumber(), liquidationPrice: liq.toNumber(), entryPrice: q.entryPrice.toNumber() };
};

describe('marginBufferRatio', () => {
  it('a 10x long of 1,000 from 100.1 (liquidation 90.5427): 1 at entry, 0 at liquidation, warned below 92.9', () => {
    const p = opened('long', 1000, 10);
    expect(p.liquidationPrice).toBeCloseTo(90.5427, 4);
    expect(marginBufferRatio({ ...p, markPrice: p.entryPrice })).toBeCloseTo(1, 6);
    expect(marginBufferRatio({ ...p, markPrice: p.liquidationPrice })).toBeCloseTo(0, 9);
    expect(isWarningDue({ ...p, markPrice: 92.9 })).toBe(true);
    expect(isWarningDue({ ...p, markPrice: 93.1 })).toBe(false);
    expect(hasRecovered({ ...p, markPrice: 96 })).toBe(true);
    expect(hasRecovered({ ...p, markPrice: 94 })).toBe(false);
  });

  it('warns a 100x position before it is liquidated (its maintenance margin is half its margin)', () => {
    const p = opened('short', 1000, 100);
    const warnAt = markAtRatio(p, LIQUIDATION_WARN_RATIO);
    expect(warnAt).toBeLessThan(p.liquidationPrice);
    expect(warnAt).toBeGreaterThan(p.entryPrice);
    expect(isWarningDue({ ...p, markPrice: warnAt + 0.001 })).toBe(true);
  });

  it('counts funding that ate the collateral: the same mark, a higher liquidation price, a smaller buffer', () => {
    const p = opened('long', 1000, 5);
    const q = quoteOpen({ side: 'long', size: 1000, leverage: 5, markPrice: 100, depth: 1_000_000 });
    const drained = liquidationPrice({ side: 'long', entryPrice: q.entryPrice, units: q.units, collateral: q.margin.minus(160) });
    expect(isWarningDue({ ...p, markPrice: p.entryPrice })).toBe(false);
    expect(isWarningDue({ ...p, liquidationPrice: drained.toNumber(), markPrice: p.entryPrice })).toBe(true);
    // The same 160 accrued on the funding index (160 / units per unit) gives the same liquidation price.
    const accrued = effectiveLiquidationPrice({ side: 'long', liquidationPrice: q.liquidationPrice, fundingIndexEntry: 3 }, dec(160).div(q.units).plus(3));
    expect(accrued.toNumber()).toBeCloseTo(drained.toNumber(), 9);
    expect(isWarningDue({ ...p, liquidationPrice: accrued.toNumber(), markPrice: p.entryPrice })).toBe(true);
  });

  const position = fc
    .record({ side: fc.constantFrom('long' as const, 'short' as const), size: fc.integer({ min: 10, max: 100_000 }), leverage: fc.integer({ min: 2, max: 100 }) })
    .map(({ side, size, leverage }) => opened(side, size, leverage));

  it('falls as the mark moves toward the liquidation price and inverts markAtRatio', () => {
    fc.assert(
      fc.property(position, fc.double({ min: -0.5, max: 1.5, noNaN: true }), fc.double({ min: -0.5, max: 1.5, noNaN: true }), (p, a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const rLo = marginBufferRatio({ ...p, markPrice: markAtRatio(p, lo) });
        const rHi = marginBufferRatio({ ...p, markPrice: markAtRatio(p, hi) });
        expect(rLo).toBeLessThanOrEqual(rHi + 1e-9);
        expect(rLo).toBeCloseTo(lo, 6);
      }),
    );
  });

  it('never both warns and counts as recovered', () => {
    expect(LIQUIDATION_WARN_RATIO).toBeLessThan(LIQUIDATION_RESET_RATIO);
    fc.assert(
      fc.property(position, fc.double({ min: -0.5, max: 1.5, noNaN: true }), (p, x) => {
        const at = { ...p, markPrice: markAtRatio(p, x) };
        expect(isWarningDue(at) && hasRecovered(at)).toBe(false);
      }),
    );
  });
});
