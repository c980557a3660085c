import { describe, expect, it } from 'vitest';
import { createRng } from './rng';
import { binomialZ, brierScore, mean, reliability, sampleStdDev, standardError, tTest } from './stats';

describe('mean, standard deviation, standard error', () => {
  it('computes them by hand', () => {
    expect(mean([1, 2, 3, 4])).toBe(2.5);
    expect(sampleStdDev([2, 4, 4, 4, 5, 5, 7, 9])).toBeCloseTo(Math.sqrt(32 / 7), 12);
    expect(standardError([2, 4, 4, 4, 5, 5, 7, 9])).toBeCloseTo(Math.sqrt(32 / 7) / Math.sqrt(8), 12);
    expect(mean([])).toBeNaN();
    expect(sampleStdDev([1])).toBeNaN();
  });
});

describe('tTest', () => {
  it('is mean over standard error', () => {
    const t = tTest([1, 2, 3, 4]);
    expect(t.n).toBe(4);
    expect(t.mean).toBe(2.5);
    expect(t.t).toBeCloseTo(2.5 / (Math.sqrt(5 / 3) / 2), 12);
    expect(tTest([-1, -2, -3, -4]).t).toBeCloseTo(-t.t, 12);
  });

  it('answers the degenerate samples without NaN', () => {
    expect(tTest([]).t).toBe(0);
    expect(tTest([5]).t).toBe(0);
    expect(tTest([0.1, 0.1, 0.1]).t).toBe(Number.POSITIVE_INFINITY);
    expect(tTest([0, 0]).t).toBe(0);
  });

  it('does not flag fair bets and flags a +5% edge (power over a synthetic series)', () => {
    // Even-money bets at a price of ½ (return +1 or −1), fair and with a 52.5% win rate (+5%).
    const bets = (win: number, n: number, seed: string) => {
      const rng = createRng(seed);
      return Array.from({ length: n }, () => (rng.next() < win ? 1 : -1));
    };
    let flagged = 0;
    for (let s = 0; s < 50; s++) if (tTest(bets(0.5, 400, `fair-${s}`)).t >= 3) flagged++;
    expect(flagged).toBeLessThanOrEqual(1);
    // t ≈ 0.05·√n: 10,000 bets give t ≈ 5.
    expect(tTest(bets(0.525, 10_000, 'edge')).t).toBeGreaterThanOrEqual(3);
  });
});

describe('binomialZ', () => {
  it('counts YES against Σp in binomial standard deviations', () => {
    const z = binomialZ([
      { p: 0.5, outcome: 1 },
      { p: 0.5, outcome: 1 },
      { p: 0.2, outcome: 0 },
      { p: 0.8, outcome: 1 },
    ]);
    expect(z.yes).toBe(3);
    expect(z.expected).toBeCloseTo(2, 12);
    expect(z.sd).toBeCloseTo(Math.sqrt(0.25 + 0.25 + 0.16 + 0.16), 12);
    expect(z.z).toBeCloseTo(1 / z.sd, 12);
  });

  it('stays within 3 for outcomes drawn from their probabilities, and flags outcomes that are always YES', () => {
    const rng = createRng('binomial');
    const drawn = Array.from({ length: 500 }, () => {
      const p = 0.05 + 0.9 * rng.next();
      return { p, outcome: (rng.next() < p ? 1 : 0) as 0 | 1 };
    });
    expect(Math.abs(binomialZ(drawn).z)).toBeLessThan(3);
    expect(binomialZ(drawn.map((d) => ({ ...d, outcome: 1 as const }))).z).toBeGreaterThan(3);
  });
});

describe('brierScore and reliability', () => {
  it('scores a coin at ½ 0.25 and a sure forecast 0', () => {
    expect(brierScore([{ p: 0.5, outcome: 1 }, { p: 0.5, outcome: 0 }])).toBe(0.25);
    expect(brierScore([{ p: 1, outcome: 1 }, { p: 0, outcome: 0 }])).toBe(0);
    expect(brierScore([{ p: 0.8, outcome: 0 }])).toBeCloseTo(0.64, 12);
  });

  it('puts forecasts in ten bins, 1 in the last, with their mean and observed rate', () => {
    const bins = reliability([
      { p: 0, outcome: 0 },
      { p: 0.05, outcome: 1 },
      { p: 0.1, outcome: 0 },
      { p: 0.95, outcome: 1 },
      { p: 1, outcome: 1 },
    ]);
    expect(bins).toHaveLength(10);
    expect(bins[0]).toMatchObject({ from: 0, to: 0.1, n: 2, observed: 0.5 });
    expect(bins[0]!.meanForecast).toBeCloseTo(0.025, 12);
    expect(bins[1]).toMatchObject({ n: 1, observed: 0 });
    expect(bins[9]).toMatchObject({ n: 2, observed: 1 });
    expect(bins[5]!.n).toBe(0);
    expect(bins[5]!.meanForecast).toBeNaN();
    expect(bins.reduce((s, b) => s + b.n, 0)).toBe(5);
  });
});
