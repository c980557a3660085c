import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BUCKETS,
  bucketBounds,
  bucketOf,
  countAtOrBelow,
  createHistogram,
  fromFields,
  MAX_MS,
  merge,
  percentile,
  PRECISION,
  record,
  toFields,
  type THistogram,
} from './histogram';

const of = (values: readonly number[]) => {
  const h = createHistogram();
  for (const v of values) record(h, v);
  return h;
};
/** Nearest rank, as the histogram defines it. */
const exact = (values: readonly number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil(q * sorted.length)) - 1]!;
};
const same = (a: THistogram, b: THistogram) => {
  expect(Array.from(a.counts)).toEqual(Array.from(b.counts));
  expect(a.count).toBe(b.count);
  expect(a.sumMicros).toBe(b.sumMicros);
};

const latency = fc.double({ min: 1, max: 60_000, noNaN: true, noDefaultInfinity: true });

describe('log-linear buckets', () => {
  it('cover 1 ms to 65.5 s in buckets at most 1/32 of their lower bound wide, contiguous', () => {
    expect(BUCKETS).toBe(16 * 32 + 2);
    for (let i = 1; i < BUCKETS - 1; i++) {
      const [lo, hi] = bucketBounds(i);
      expect((hi - lo) / lo).toBeLessThanOrEqual(1 / 32 + 1e-12);
      expect(bucketBounds(i + 1)[0]).toBeCloseTo(hi, 9);
    }
    expect(bucketBounds(1)[0]).toBe(1);
    expect(bucketBounds(BUCKETS - 2)[1]).toBe(MAX_MS);
  });

  it('put a value in the bucket whose bounds hold it (powers of two and bounds included)', () => {
    for (const v of [1, 2, 4, 1024, 5, 10, 25, 50, 100, 1.5, 3.999999, 65535.9]) {
      const [lo, hi] = bucketBounds(bucketOf(v));
      expect(v >= lo && v < hi, `${v} in [${lo}, ${hi})`).toBe(true);
    }
    fc.assert(
      fc.property(latency, (v) => {
        const [lo, hi] = bucketBounds(bucketOf(v));
        return v >= lo && v < hi;
      }),
    );
  });

  it('send below 1 ms, NaN and negatives to the first bucket, 65.5 s and more to the last', () => {
    expect([0, 0.3, -5, Number.NaN].map(bucketOf)).toEqual([0, 0, 0, 0]);
    expect([MAX_MS, 1e9, Infinity].map(bucketOf)).toEqual([BUCKETS - 1, BUCKETS - 1, BUCKETS - 1]);
  });
});

describe('percentiles', () => {
  it('are null when empty, and the value itself (within precision) for one value', () => {
    expect(percentile(createHistogram(), 0.5)).toBeNull();
    expect(Math.abs(percentile(of([42]), 0.99)! - 42) / 42).toBeLessThanOrEqual(PRECISION);
  });

  it('are within the bucket precision of the exact nearest-rank percentile (property)', () => {
    fc.assert(
      fc.property(fc.array(latency, { minLength: 1, maxLength: 300 }), fc.constantFrom(0.01, 0.5, 0.9, 0.99, 0.999, 1), (values, q) => {
        const got = percentile(of(values), q)!;
        const want = exact(values, q);
        return Math.abs(got - want) <= want * PRECISION + 1e-9;
      }),
      { numRuns: 300 },
    );
  });

  it('count, sum and Prometheus cumulative buckets', () => {
    const h = of([0.5, 3, 7, 20, 400, 70_000]);
    expect(h.count).toBe(6);
    expect(h.sumMicros).toBe(Math.round((0.5 + 3 + 7 + 20 + 400 + 70_000) * 1000));
    expect(countAtOrBelow(h, 5)).toBe(2); // 5 ms is a bucket bound (4 · 1.25)
    expect(countAtOrBelow(h, 10)).toBe(3);
    expect(countAtOrBelow(h, 60_000)).toBe(5);
    expect(countAtOrBelow(h, Infinity)).toBe(6);
  });
});

describe('merge', () => {
  const hist = fc.array(fc.oneof(latency, fc.double({ min: 0, max: 200_000, noNaN: true })), { maxLength: 50 }).map(of);

  it('is associative and commutative, and equals recording everything in one', () => {
    fc.assert(
      fc.property(hist, hist, hist, (a, b, c) => {
        same(merge(a, merge(b, c)), merge(merge(a, b), c));
        same(merge(a, b), merge(b, a));
      }),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(fc.array(latency, { maxLength: 40 }), fc.array(latency, { maxLength: 40 }), (x, y) => same(merge(of(x), of(y)), of([...x, ...y]))),
    );
  });

  it('survives its Redis fields', () => {
    fc.assert(fc.property(hist, (h) => same(fromFields(Object.fromEntries(Object.entries(toFields(h)).map(([k, v]) => [k, String(v)]))), h)));
  });
});
