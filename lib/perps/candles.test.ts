import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bucketStart, buildCandles, CANDLE_INTERVALS, intervalForRange, type TPricePoint } from './candles';

const H = 3_600_000;
const T0 = Date.UTC(2026, 10, 27, 0, 0, 0);

describe('buildCandles examples', () => {
  it('builds hourly candles: open first, close last, extremes in between', () => {
    const points: TPricePoint[] = [
      { at: T0 + 5 * 60_000, price: 100 },
      { at: T0 + 10 * 60_000, price: 104 },
      { at: T0 + 20 * 60_000, price: 98 },
      { at: T0 + 59 * 60_000, price: 101 },
      { at: T0 + H, price: 102 },
    ];
    expect(buildCandles(points, H)).toEqual([
      { start: T0, open: 100, high: 104, low: 98, close: 101, count: 4 },
      { start: T0 + H, open: 102, high: 102, low: 102, close: 102, count: 1 },
    ]);
  });

  it('leaves empty buckets out rather than inventing flat candles', () => {
    const candles = buildCandles(
      [
        { at: T0, price: 10 },
        { at: T0 + 3 * H + 1, price: 11 },
      ],
      H,
    );
    expect(candles.map((c) => c.start)).toEqual([T0, T0 + 3 * H]);
  });

  it('sorts by time and keeps the input order at the same instant', () => {
    const candles = buildCandles(
      [
        { at: T0 + 2, price: 3 },
        { at: T0 + 1, price: 1 },
        { at: T0 + 1, price: 2 },
      ],
      H,
    );
    expect(candles).toEqual([{ start: T0, open: 1, high: 3, low: 1, close: 3, count: 3 }]);
  });

  it('answers nothing for no points and refuses a bad interval', () => {
    expect(buildCandles([], H)).toEqual([]);
    expect(() => buildCandles([], 0)).toThrow(RangeError);
    expect(() => buildCandles([], 1.5)).toThrow(RangeError);
  });

  it('aligns daily buckets to UTC midnight and picks an interval per range', () => {
    expect(bucketStart(T0 + 23 * H, CANDLE_INTERVALS['1d'])).toBe(T0);
    expect(intervalForRange('24h')).toBe('1h');
    expect(intervalForRange('1h')).toBe('5m');
    expect(intervalForRange('all')).toBe('1d');
  });
});

const arbInterval = fc.constantFrom(...Object.values(CANDLE_INTERVALS));
const arbPoints = fc.array(
  fc.record({
    at: fc.integer({ min: T0 - 40 * 86_400_000, max: T0 + 40 * 86_400_000 }),
    price: fc.double({ min: 0.0001, max: 1e6, noNaN: true }),
  }),
  { maxLength: 200 },
);

describe('buildCandles properties', () => {
  it('every candle has low ≤ open, close ≤ high', () => {
    fc.assert(
      fc.property(arbPoints, arbInterval, (points, interval) => {
        for (const c of buildCandles(points, interval)) {
          expect(c.low).toBeLessThanOrEqual(Math.min(c.open, c.close));
          expect(c.high).toBeGreaterThanOrEqual(Math.max(c.open, c.close));
        }
      }),
    );
  });

  it('each point falls in exactly one aligned bucket, and candles are in order without empty ones', () => {
    fc.assert(
      fc.property(arbPoints, arbInterval, (points, interval) => {
        const candles = buildCandles(points, interval);
        expect(candles.reduce((n, c) => n + c.count, 0)).toBe(points.length);
        for (const c of candles) {
          expect(c.start % interval).toBe(0);
          expect(c.count).toBeGreaterThan(0);
        }
        for (let i = 1; i < candles.length; i++) expect(candles[i]!.start).toBeGreaterThan(candles[i - 1]!.start);
        for (const p of points) {
          const holding = candles.filter((c) => p.at >= c.start && p.at < c.start + interval);
          expect(holding).toHaveLength(1);
          expect(holding[0]!.low).toBeLessThanOrEqual(p.price);
          expect(holding[0]!.high).toBeGreaterThanOrEqual(p.price);
        }
      }),
    );
  });

  it("open is the bucket's first point and close its last (time order, stable at equal times)", () => {
    fc.assert(
      fc.property(arbPoints, arbInterval, (points, interval) => {
        const sorted = [...points].sort((a, b) => a.at - b.at);
        for (const c of buildCandles(points, interval)) {
          const inBucket = sorted.filter((p) => bucketStart(p.at, interval) === c.start);
          expect(c.open).toBe(inBucket[0]!.price);
          expect(c.close).toBe(inBucket.at(-1)!.price);
          expect(c.high).toBe(Math.max(...inBucket.map((p) => p.price)));
          expect(c.low).toBe(Math.min(...inBucket.map((p) => p.price)));
        }
      }),
    );
  });

  it('is one function for every interval: a coarse candle merges the fine candles it covers', () => {
    fc.assert(
      fc.property(arbPoints, fc.constantFrom<[number, number]>([300_000, 3_600_000], [3_600_000, 14_400_000], [14_400_000, 86_400_000]), (points, [fine, coarse]) => {
        const merged = buildCandles(
          buildCandles(points, fine).flatMap((c) => [
            { at: c.start, price: c.open },
            { at: c.start, price: c.high },
            { at: c.start, price: c.low },
            { at: c.start, price: c.close },
          ]),
          coarse,
        );
        const direct = buildCandles(points, coarse);
        expect(merged.map(({ start, open, high, low, close }) => ({ start, open, high, low, close }))).toEqual(
          direct.map(({ start, open, high, low, close }) => ({ start, open, high, low, close })),
        );
      }),
    );
  });
});
