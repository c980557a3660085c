import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  dailyVolatility,
  eventQuestionValue,
  personalView,
  priceQuestionValue,
  probabilityAbove,
  questionValue,
  VALUE_CEIL,
  VALUE_FLOOR,
  volatilityPerDay,
} from './value';

const spot = fc.double({ min: 0.5, max: 1000, noNaN: true });
const ratio = fc.double({ min: 0.5, max: 2, noNaN: true });
const vol = fc.double({ min: 0.01, max: 1, noNaN: true });
const days = fc.double({ min: 0.001, max: 10, noNaN: true });
const comparison = fc.constantFrom<'above' | 'below'>('above', 'below');

describe('priceQuestionValue (log-normal: P(S_T > K) = N(d2))', () => {
  it('examples: the issue’s QBIT question is far from 20%; deep in or out of the money near the bounds', () => {
    // "Will $QBIT close above 83.5 by Tue?" with QBIT at 98.15, σ 0.3 per √day, 2 days left.
    const qbit = priceQuestionValue({ spot: 98.15, strike: 83.5, comparison: 'above', volatility: 0.3, days: 2 });
    expect(qbit).toBeGreaterThan(0.55);
    // "$VRSE below 68" (it sat at 41%) with VRSE at 85.38 and its σ 0.004 per tick (0.15 per √day), a day left.
    expect(priceQuestionValue({ spot: 85.38, strike: 68, comparison: 'below', volatility: dailyVolatility(0.004), days: 1 })).toBeLessThan(0.1);
    expect(priceQuestionValue({ spot: 200, strike: 100, comparison: 'above', volatility: 0.2, days: 1 })).toBe(VALUE_CEIL);
    // At the money, "above" is a little under ½ (the walk's median sits below spot) and ½ as time runs out.
    expect(priceQuestionValue({ spot: 100, strike: 100, comparison: 'above', volatility: 0.3, days: 4 })).toBeLessThan(0.5);
    expect(priceQuestionValue({ spot: 100, strike: 100, comparison: 'above', volatility: 0.3, days: 0 })).toBe(0.5);
  });

  it('property: always within [0.01, 0.99]', () => {
    fc.assert(
      fc.property(spot, ratio, comparison, vol, fc.double({ min: 0, max: 30, noNaN: true }), (s, r, c, v, d) => {
        const p = priceQuestionValue({ spot: s, strike: s * r, comparison: c, volatility: v, days: d });
        expect(p).toBeGreaterThanOrEqual(VALUE_FLOOR);
        expect(p).toBeLessThanOrEqual(VALUE_CEIL);
        expect(p).toBeGreaterThan(0);
        expect(p).toBeLessThan(1);
      }),
    );
  });

  it('property: "above" and "below" of one strike sum to 1', () => {
    fc.assert(
      fc.property(spot, ratio, vol, days, (s, r, v, d) => {
        const q = { spot: s, strike: s * r, volatility: v, days: d };
        expect(priceQuestionValue({ ...q, comparison: 'above' }) + priceQuestionValue({ ...q, comparison: 'below' })).toBeCloseTo(1, 12);
      }),
    );
  });

  it('property: "above" never falls as spot rises, and never rises as the strike rises ("below" the reverse)', () => {
    fc.assert(
      fc.property(spot, ratio, fc.double({ min: 1, max: 1.5, noNaN: true }), vol, days, comparison, (s, r, up, v, d, c) => {
        const k = s * r;
        const at = (sp: number, st: number) => priceQuestionValue({ spot: sp, strike: st, comparison: c, volatility: v, days: d });
        const sign = c === 'above' ? 1 : -1;
        expect(sign * (at(s * up, k) - at(s, k))).toBeGreaterThanOrEqual(-1e-12);
        expect(sign * (at(s, k * up) - at(s, k))).toBeLessThanOrEqual(1e-12);
      }),
    );
  });

  it('property: as time runs out, a spot away from the strike decides it (0.99 or 0.01)', () => {
    fc.assert(
      fc.property(spot, fc.double({ min: 0.02, max: 0.5, noNaN: true }), fc.boolean(), vol, comparison, (s, gap, over, v, c) => {
        // ln(S/K) at least 0.02 either way; with a tenth of a second left (σ√T ≤ 0.001) nothing crosses it.
        const k = over ? s * Math.exp(-gap) : s * Math.exp(gap);
        const p = priceQuestionValue({ spot: s, strike: k, comparison: c, volatility: v, days: 1e-6 });
        expect(p).toBeCloseTo((c === 'above') === over ? VALUE_CEIL : VALUE_FLOOR, 9);
      }),
    );
  });

  it('property: at the money "above" is at most ½ and tends to ½ as time → 0 (the median of the walk is S·e^(−σ²T/2))', () => {
    fc.assert(
      fc.property(spot, vol, days, (s, v, d) => {
        const p = probabilityAbove(s, s, v, d);
        expect(p).toBeLessThanOrEqual(0.5);
        expect(Math.abs(probabilityAbove(s, s, v, d / 1e6) - 0.5)).toBeLessThan(Math.abs(p - 0.5) + 1e-9);
        expect(probabilityAbove(s, s, v, 1e-12)).toBeCloseTo(0.5, 6);
      }),
    );
  });

  it('property: more volatility or more time pulls a question toward the middle', () => {
    fc.assert(
      fc.property(spot, ratio, vol, days, fc.double({ min: 1, max: 4, noNaN: true }), (s, r, v, d, more) => {
        // Only where the drift term cannot dominate: log-moneyness beyond the σ²T/2 shift.
        const k = s * r;
        const m = Math.log(s / k);
        fc.pre(Math.abs(m) > (v * v * d * more * more) / 2 + 1e-6);
        const a = probabilityAbove(s, k, v, d);
        const b = probabilityAbove(s, k, v * more, d);
        expect(Math.abs(b - 0.5)).toBeLessThanOrEqual(Math.abs(a - 0.5) + 1e-12);
      }),
    );
  });
});

describe('eventQuestionValue (the odds it was born with, then evidence)', () => {
  it('is the probability it was born with at the start, 0.99 once fulfilled, falls as the window runs out quietly', () => {
    expect(eventQuestionValue({ baseRate: 0.4, fulfilled: false, elapsed: 0 })).toBeCloseTo(0.4, 12);
    expect(eventQuestionValue({ baseRate: 0.4, fulfilled: true, elapsed: 0.5 })).toBe(VALUE_CEIL);
    expect(eventQuestionValue({ baseRate: 0.4, fulfilled: false, elapsed: 0.5 })).toBeCloseTo(0.2 / 0.8, 12);
    expect(eventQuestionValue({ baseRate: 0.4, fulfilled: false, elapsed: 1 })).toBe(VALUE_FLOOR);
  });

  it('property: within [0.01, 0.99], never rising with time, rising with the probability it was born with', () => {
    const rate = fc.double({ min: 0, max: 1, noNaN: true });
    const t = fc.double({ min: 0, max: 1, noNaN: true });
    fc.assert(
      fc.property(rate, rate, t, t, (p1, p2, e1, e2) => {
        const v = (p: number, e: number) => eventQuestionValue({ baseRate: p, fulfilled: false, elapsed: e });
        expect(v(p1, e1)).toBeGreaterThanOrEqual(VALUE_FLOOR);
        expect(v(p1, e1)).toBeLessThanOrEqual(VALUE_CEIL);
        expect(v(p1, Math.max(e1, e2))).toBeLessThanOrEqual(v(p1, Math.min(e1, e2)) + 1e-12);
        expect(v(Math.max(p1, p2), e1)).toBeGreaterThanOrEqual(v(Math.min(p1, p2), e1) - 1e-12);
      }),
    );
  });
});

describe('questionValue, volatilityPerDay, personalView', () => {
  it('a question without a rule has no value', () => {
    expect(questionValue(null)).toBeNull();
    expect(questionValue({ kind: 'event', baseRate: 0.5, fulfilled: true, elapsed: 0 })).toBe(VALUE_CEIL);
  });

  it('volatility: realized once there are enough moves, never below half the model’s', () => {
    expect(volatilityPerDay({ perTick: 0.005 })).toBeCloseTo(0.005 * Math.sqrt(1440), 12);
    expect(volatilityPerDay({ perTick: 0.005, realized: { sumSquares: 0.04, days: 0.25, moves: 360 } })).toBeCloseTo(0.4, 12);
    expect(volatilityPerDay({ perTick: 0.005, realized: { sumSquares: 0.04, days: 0.25, moves: 10 } })).toBeCloseTo(0.005 * Math.sqrt(1440), 12);
    expect(volatilityPerDay({ perTick: 0.005, realized: { sumSquares: 0, days: 0.25, moves: 360 } })).toBeCloseTo((0.005 * Math.sqrt(1440)) / 2, 12);
  });

  it('property: a view stays within the bounds and within its spread of the fair value in log-odds, the same for the same key', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.01, max: 0.99, noNaN: true }), fc.string(), fc.double({ min: 0, max: 1, noNaN: true }), (fair, key, spread) => {
        const v = personalView(fair, key, spread);
        expect(v).toBe(personalView(fair, key, spread));
        expect(v).toBeGreaterThanOrEqual(VALUE_FLOOR);
        expect(v).toBeLessThanOrEqual(VALUE_CEIL);
        const logit = (p: number) => Math.log(p / (1 - p));
        expect(Math.abs(logit(v) - logit(fair))).toBeLessThanOrEqual(spread + 1e-9);
      }),
    );
  });
});
