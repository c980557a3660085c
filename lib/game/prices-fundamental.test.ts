import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NEWS_PRICE_WEIGHT, FUNDAMENTAL_HALF_LIFE_MINUTES, pullShare, pullToward, stepTicker, VALUE_NEWS_KINDS } from './prices';
import { createRng } from './rng';
import { ORGANIZATIONS } from '@/lib/world/seed/world-data';

describe('fundamental pull (Ornstein–Uhlenbeck in log space)', () => {
  it('halves the log gap in a half-life and pulls more over a longer tick', () => {
    expect(pullShare(FUNDAMENTAL_HALF_LIFE_MINUTES)).toBeCloseTo(0.5, 12);
    expect(pullShare(0)).toBe(0);
    expect(pullShare(720)).toBeGreaterThan(pullShare(1));
    expect(pullToward(200, 100, FUNDAMENTAL_HALF_LIFE_MINUTES)).toBeCloseTo(100 * Math.SQRT2, 9);
  });
  it('never overshoots the fundamental and is deterministic', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.01, max: 1e5, noNaN: true }), fc.double({ min: 0.01, max: 1e5, noNaN: true }), fc.double({ min: 0, max: 1e6, noNaN: true }), (fair, fund, minutes) => {
        const x = pullToward(fair, fund, minutes);
        expect(x).toBe(pullToward(fair, fund, minutes));
        const lo = Math.min(fair, fund) * (1 - 1e-12);
        const hi = Math.max(fair, fund) * (1 + 1e-12);
        expect(x).toBeGreaterThanOrEqual(lo);
        expect(x).toBeLessThanOrEqual(hi);
      }),
    );
  });
  it('moves the fundamental only with value-moving news', () => {
    const rng = () => createRng('t');
    const a = stepTicker({ fairValue: 100, fundamental: 100, volatility: 0, push: 0.05, valuePush: 0.05, minutes: 1 }, rng());
    expect(a.fundamental).toBeCloseTo(105, 6);
    const b = stepTicker({ fairValue: 100, fundamental: 100, volatility: 0, push: 0.05, valuePush: 0, minutes: 1 }, rng());
    expect(b.fundamental).toBe(100);
    expect(b.fair).toBeCloseTo(105, 6);
    expect(VALUE_NEWS_KINDS.has('executive_statement')).toBe(false);
  });
});

/** 90 days of the walk with random news (a dozen items a ticker a day at 1-minute steps, ±1–8% weighted as live), at a fixed step. */
function simulate(stepMinutes: number, seed: string) {
  const days = 90;
  const steps = (days * 1440) / stepMinutes;
  const perDay = 1440 / stepMinutes;
  const kinds = [...VALUE_NEWS_KINDS, 'executive_statement'];
  let maxGap = 0;
  const ranges: number[] = [];
  for (const o of ORGANIZATIONS) {
    const rng = createRng(`${seed}:${o.ticker}`);
    let fair = Number(o.price);
    let fundamental = fair;
    let hi = fair;
    let lo = fair;
    for (let k = 0; k < steps; k++) {
      let push = 0;
      let valuePush = 0;
      // As live: 0.07 news a minute over 8 tickers, a gap catching up 15 minutes of news at most.
      if (rng.float(0, 1) < (Math.min(stepMinutes, 15) * 0.07) / 8) {
        const impact = NEWS_PRICE_WEIGHT * rng.float(0.01, 0.08) * (rng.float(0, 1) < 0.5 ? -1 : 1);
        push += impact;
        if (VALUE_NEWS_KINDS.has(rng.pick(kinds))) valuePush += impact;
      }
      ({ fair, fundamental } = stepTicker({ fairValue: fair, fundamental, volatility: Number(o.volatility), push, valuePush, minutes: stepMinutes }, rng));
      maxGap = Math.max(maxGap, Math.abs(Math.log(fair / fundamental)));
      hi = Math.max(hi, fair);
      lo = Math.min(lo, fair);
      if ((k + 1) % perDay === 0) {
        ranges.push((hi - lo) / lo);
        hi = lo = fair;
      }
    }
  }
  ranges.sort((a, b) => a - b);
  return { maxGap, medianRange: ranges[Math.floor(ranges.length / 2)]! };
}

describe('90 simulated days of the walk with news', () => {
  it.each([1, 720])('keeps every fair value within 30 percent of its fundamental at %i-minute steps', (step) => {
    const r = simulate(step, 'sim');
    console.log(`step ${step} min: max |log(fair/fundamental)| = ${r.maxGap.toFixed(4)}, median daily range = ${(r.medianRange * 100).toFixed(2)}%`);
    expect(r.maxGap).toBeLessThan(Math.log(1.3));
    if (step === 1) {
      expect(r.medianRange).toBeGreaterThan(0.01);
      expect(r.medianRange).toBeLessThan(0.05);
    }
  }, 120_000);
});
