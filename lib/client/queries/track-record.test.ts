import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeBrier, toCalibrationPoints } from './track-record';

describe('toCalibrationPoints', () => {
  it('labels each bucket and turns rates into whole percentages, empty buckets into nulls', () => {
    expect(
      toCalibrationPoints([
        { from: 0.6, to: 0.8, forecasts: 2, meanForecast: 0.725, outcomeRate: 0.5 },
        { from: 0.8, to: 1, forecasts: 0, meanForecast: null, outcomeRate: null },
      ]),
    ).toEqual([
      { label: '60–80%', forecasts: 2, said: 73, happened: 50 },
      { label: '80–100%', forecasts: 0, said: null, happened: null },
    ]);
  });

  it('keeps every percentage within 0–100', () => {
    const rate = fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null });
    fc.assert(
      fc.property(fc.array(fc.record({ from: fc.constant(0), to: fc.constant(1), forecasts: fc.nat(), meanForecast: rate, outcomeRate: rate })), (buckets) => {
        for (const p of toCalibrationPoints(buckets)) for (const v of [p.said, p.happened]) if (v !== null) expect(v >= 0 && v <= 100).toBe(true);
      }),
    );
  });
});

describe('describeBrier', () => {
  it('reads lower as better, 0.25 as a coin', () => {
    expect(describeBrier(null)).toBe('No resolved questions yet');
    expect(describeBrier(0.05)).toBe('Sharp');
    expect(describeBrier(0.25)).toBe('About a coin');
    expect(describeBrier(0.4)).toBe('Worse than a coin');
  });
});
