import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { brierScore, calibrationBuckets, type TForecast } from './calibration';

describe('brierScore', () => {
  it('is 0 for certain and right, 1 for certain and wrong, 0.25 for a coin, null for none', () => {
    expect(brierScore([{ p: 1, o: 1 }, { p: 0, o: 0 }])).toBe(0);
    expect(brierScore([{ p: 1, o: 0 }])).toBe(1);
    expect(brierScore([{ p: 0.5, o: 1 }, { p: 0.5, o: 0 }])).toBe(0.25);
    expect(brierScore([])).toBeNull();
  });
});

describe('calibrationBuckets', () => {
  it('groups a worked example into five buckets', () => {
    const b = calibrationBuckets([
      { p: 0.75, o: 1 },
      { p: 0.7, o: 0 },
      { p: 0.1, o: 0 },
      { p: 1, o: 1 },
    ]);
    expect(b.map((x) => x.forecasts)).toEqual([1, 0, 0, 2, 1]);
    expect(b[3]).toEqual({ from: 0.6, to: 0.8, forecasts: 2, meanForecast: 0.725, outcomeRate: 0.5 });
    expect(b[1]).toMatchObject({ meanForecast: null, outcomeRate: null });
  });

  const forecast: fc.Arbitrary<TForecast> = fc.record({ p: fc.double({ min: 0, max: 1, noNaN: true }), o: fc.constantFrom(0 as const, 1 as const) });

  it('keeps every forecast once, each inside its bucket, rates in [0, 1]', () => {
    fc.assert(
      fc.property(fc.array(forecast, { maxLength: 60 }), fc.integer({ min: 1, max: 20 }), (fs, n) => {
        const b = calibrationBuckets(fs, n);
        expect(b).toHaveLength(n);
        expect(b.reduce((s, x) => s + x.forecasts, 0)).toBe(fs.length);
        for (const x of b) {
          if (x.meanForecast === null) continue;
          expect(x.meanForecast).toBeGreaterThanOrEqual(x.from - 1e-6);
          expect(x.meanForecast).toBeLessThanOrEqual(x.to + 1e-6);
          expect(x.outcomeRate).toBeGreaterThanOrEqual(0);
          expect(x.outcomeRate).toBeLessThanOrEqual(1);
        }
        const s = brierScore(fs);
        if (s !== null) {
          expect(s).toBeGreaterThanOrEqual(0);
          expect(s).toBeLessThanOrEqual(1);
        }
      }),
    );
  });
});
