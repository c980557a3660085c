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
    expect(closePremium(103, 100)).toBe(100.25);
    expect(closePremium(97, 100)).toBe(99.75);
    expect(closePremium(100.1, 100)).toBe(100.1);
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
