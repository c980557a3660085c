import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ARBITRAGE_BAND, biasPush, biasStrength, biasTradeAmount, closePremium, driftMark, MIN_BIAS_STRENGTH, MIN_PRICE, stepFairValue, type TBias } from './prices';
import { createRng } from './rng';

const HOUR = 3_600_000;
const T = new Date('2030-01-01T00:00:00.000Z');
const bias = (over: Partial<TBias> = {}): TBias => ({
  direction: 'YES',
  adjustment: 0.5,
  decayRate: 0.1,
  createdAt: T,
  expiresAt: new Date(T.getTime() + 6 * HOUR),
  ...over,
});

describe('stepFairValue', () => {
  it('is deterministic for a seed and moves by about its volatility', () => {
    const a = stepFairValue({ fairValue: 100, volatility: 0.01, push: 0 }, createRng('x'));
    expect(stepFairValue({ fairValue: 100, volatility: 0.01, push: 0 }, createRng('x'))).toBe(a);
    expect(Math.abs(a - 100)).toBeLessThan(6);
    expect(stepFairValue({ fairValue: 100, volatility: 0, push: 0 }, createRng('x'))).toBe(100);
  });

  it('applies the push multiplicatively and caps it at ±50%', () => {
    expect(stepFairValue({ fairValue: 100, volatility: 0, push: 0.05 }, createRng('x'))).toBe(105);
    expect(stepFairValue({ fairValue: 100, volatility: 0, push: 3 }, createRng('x'))).toBe(150);
    expect(stepFairValue({ fairValue: 100, volatility: 0, push: -3 }, createRng('x'))).toBe(50);
  });

  it('keeps every price positive, at least a cent, over long walks with any pushes', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.01, max: 1e6, noNaN: true }),
        fc.double({ min: 0, max: 0.5, noNaN: true }),
        fc.array(fc.double({ min: -5, max: 5, noNaN: true }), { minLength: 1, maxLength: 200 }),
        fc.string(),
        (start, vol, pushes, seed) => {
          const rng = createRng(seed);
          let p = start;
          for (const push of pushes) {
            p = stepFairValue({ fairValue: p, volatility: vol, push }, rng);
            if (!(p >= MIN_PRICE) || !Number.isFinite(p)) return false;
          }
          return true;
        },
      ),
    );
  });
});

describe('driftMark', () => {
  it('closes a quarter of the gap and never passes the fair value', () => {
    expect(driftMark(100, 120)).toBe(105);
    expect(driftMark(100, 80)).toBe(95);
    fc.assert(
      fc.property(fc.double({ min: 0.01, max: 1e6, noNaN: true }), fc.double({ min: 0.01, max: 1e6, noNaN: true }), (mark, fair) => {
        const next = driftMark(mark, fair);
        const lo = Math.min(mark, fair) - 1e-4;
        const hi = Math.max(mark, fair) + 1e-4;
        return next >= MIN_PRICE && next >= lo && next <= hi && Math.abs(fair - next) <= Math.abs(fair - mark) + 1e-4;
      }),
    );
  });
});

describe('closePremium', () => {
  it('brings a mark outside the band to its edge and leaves one inside unchanged', () => {
    expect(closePremium(103, 100, 0.0025)).toBe(100.25);
    expect(closePremium(97, 100, 0.0025)).toBe(99.75);
    expect(closePremium(100.1, 100, 0.0025)).toBe(100.1);
  });

  it('uses the funding premium clamp as its band (±0.05%), the edge rounded inward to 8 places', () => {
    expect(ARBITRAGE_BAND).toBe(0.0005);
    expect(closePremium(103, 100)).toBe(100.05);
    expect(closePremium(97, 100)).toBe(99.95);
    expect(closePremium(100.04, 100)).toBe(100.04);
    // 98.15 × 1.0005 = 98.199075, 98.15 × 0.9995 = 98.100925: already 8-place, kept exactly.
    expect(closePremium(99, 98.15)).toBe(98.199075);
    expect(closePremium(97, 98.15)).toBe(98.100925);
    // 0.0123 × 1.0005 = 0.01230615 exactly; 0.01234567 × 1.0005 = 0.012351842835 → floor 0.01235184.
    expect(closePremium(1, 0.0123)).toBe(0.01230615);
    expect(closePremium(1, 0.01234567)).toBe(0.01235184);
  });

  it('property: an index of 8 places or fewer ends exactly within the band, never beyond it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1_000_000, max: 50_000_000_000 }), fc.double({ min: 0.5, max: 2, noNaN: true }), (cents8, ratio) => {
        if (Math.abs(ratio - 1) <= 0.001) return; // inside (or at) the band the mark stays as it is
        const index = cents8 / 1e8;
        const next = closePremium(index * ratio, index);
        // In exact 8-place arithmetic: index·(1 − band) ≤ next ≤ index·(1 + band).
        const n = BigInt(Math.round(next * 1e8));
        const i = BigInt(cents8);
        expect(n * 10_000n <= i * 10_005n && n * 10_000n >= i * 9_995n).toBe(true);
      }),
    );
  });

  it('property: the result is within the band (up to rounding) and never moves a mark already inside', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.01, max: 1e5, noNaN: true }), fc.double({ min: 0.01, max: 1e5, noNaN: true }), (mark, index) => {
        const next = closePremium(mark, index);
        expect(Math.abs(next - index) / index).toBeLessThanOrEqual(ARBITRAGE_BAND + 0.0001 / index + 1e-12);
        if (Math.abs(mark - index) <= index * ARBITRAGE_BAND) expect(next).toBe(mark);
      }),
    );
  });
});

describe('biasStrength', () => {
  it('decays by its rate per hour and is zero once expired', () => {
    expect(biasStrength(bias(), T)).toBe(0.5);
    expect(biasStrength(bias(), new Date(T.getTime() + HOUR))).toBeCloseTo(0.45, 10);
    expect(biasStrength(bias(), new Date(T.getTime() + 2 * HOUR))).toBeCloseTo(0.405, 10);
    expect(biasStrength(bias(), new Date(T.getTime() + 6 * HOUR))).toBe(0);
    expect(biasStrength(bias({ decayRate: 1 }), new Date(T.getTime() + HOUR))).toBe(0);
  });

  it('falls monotonically to zero for any bias', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0.001, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 72 }),
        fc.array(fc.integer({ min: 0, max: 100 * 60 }), { minLength: 2, maxLength: 30 }),
        (adjustment, decayRate, hours, minutes) => {
          const b = bias({ adjustment, decayRate, expiresAt: new Date(T.getTime() + hours * HOUR) });
          const strengths = [...minutes].sort((x, y) => x - y).map((m) => biasStrength(b, new Date(T.getTime() + m * 60_000)));
          const monotone = strengths.every((s, i) => i === 0 || s <= strengths[i - 1]!);
          const bounded = strengths.every((s) => s === 0 || (s >= MIN_BIAS_STRENGTH && s <= 1));
          return monotone && bounded && biasStrength(b, new Date(T.getTime() + hours * HOUR)) === 0;
        },
      ),
    );
  });
});

describe('bias effects', () => {
  it('pushes the fair value the way the question leans and trades a sum that grows with strength', () => {
    expect(biasPush(0.5, 'YES', 'above', 0.01)).toBeCloseTo(0.005);
    expect(biasPush(0.5, 'YES', 'below', 0.01)).toBeCloseTo(-0.005);
    expect(biasPush(0.5, 'NO', 'above', 0.01)).toBeCloseTo(-0.005);
    expect(biasTradeAmount(0)).toBe(0);
    expect(biasTradeAmount(0.01)).toBe(1);
    expect(biasTradeAmount(0.5)).toBe(20);
  });
});
