/**
 * Latency histograms, HDR-style: log-linear buckets over milliseconds. Each power of two from
 * 1 ms to 65.536 s (16 octaves) is cut into SUB_BUCKETS equal buckets, so a bucket is at most
 * 1/32 (3.1 %) of its lower bound wide, and a percentile read as its bucket's midpoint is within
 * PRECISION (1/64, 1.6 %) of the exact value. Below 1 ms is one bucket, at or above 65.536 s
 * another. A histogram is a fixed array of counts, its count and its sum (integer microseconds,
 * so sums and merges are exact and associative). Recording is O(1). Pure: no I/O, no clock.
 */

export const SUB_BUCKETS = 32;
export const OCTAVES = 16;
/** Lowest tracked value (ms): below it is the underflow bucket. */
export const MIN_MS = 1;
/** At and above this (ms) is the overflow bucket. */
export const MAX_MS = MIN_MS * 2 ** OCTAVES;
/** Buckets: underflow, OCTAVES × SUB_BUCKETS, overflow. */
export const BUCKETS = OCTAVES * SUB_BUCKETS + 2;
/** Largest relative error of a percentile between MIN_MS and MAX_MS (half a bucket over its lower bound). */
export const PRECISION = 1 / (2 * SUB_BUCKETS);

export type THistogram = {
  counts: Float64Array;
  count: number;
  /** Sum of the recorded values, in whole microseconds. */
  sumMicros: number;
};

export function createHistogram(): THistogram {
  return { counts: new Float64Array(BUCKETS), count: 0, sumMicros: 0 };
}

/** The bucket index of a value in ms. O(1). */
export function bucketOf(ms: number): number {
  if (!(ms >= MIN_MS)) return 0; // also NaN and negatives
  if (ms >= MAX_MS) return BUCKETS - 1;
  const v = ms / MIN_MS;
  let e = Math.floor(Math.log2(v));
  // Math.log2 may be off by one ulp near a power of two.
  if (2 ** e > v) e--;
  else if (2 ** (e + 1) <= v) e++;
  const sub = Math.min(SUB_BUCKETS - 1, Math.floor((v / 2 ** e - 1) * SUB_BUCKETS));
  return 1 + e * SUB_BUCKETS + sub;
}

/** [lower, upper) of a bucket in ms (the overflow bucket's upper bound is Infinity). */
export function bucketBounds(i: number): [number, number] {
  if (i <= 0) return [0, MIN_MS];
  if (i >= BUCKETS - 1) return [MAX_MS, Infinity];
  const e = Math.floor((i - 1) / SUB_BUCKETS);
  const sub = (i - 1) % SUB_BUCKETS;
  const base = MIN_MS * 2 ** e;
  return [base * (1 + sub / SUB_BUCKETS), base * (1 + (sub + 1) / SUB_BUCKETS)];
}

/** What a bucket stands for: its midpoint (the overflow bucket: its lower bound). */
export function bucketValue(i: number): number {
  const [lo, hi] = bucketBounds(i);
  return hi === Infinity ? lo : (lo + hi) / 2;
}

/** Records `n` values of `ms` (n > 1: the same delay seen by n subscribers). O(1). */
export function record(h: THistogram, ms: number, n = 1) {
  h.counts[bucketOf(ms)]! += n;
  h.count += n;
  h.sumMicros += Math.round(Math.max(0, ms) * 1000) * n;
}

/** Adds `from` into `into`. */
export function mergeInto(into: THistogram, from: THistogram) {
  if (from.count === 0) return into;
  for (let i = 0; i < BUCKETS; i++) if (from.counts[i]) into.counts[i]! += from.counts[i]!;
  into.count += from.count;
  into.sumMicros += from.sumMicros;
  return into;
}

/** A new histogram holding both. */
export function merge(a: THistogram, b: THistogram): THistogram {
  return mergeInto(mergeInto(createHistogram(), a), b);
}

/**
 * The q-quantile (0 < q ≤ 1), nearest rank: the value of the bucket holding the ceil(q·count)-th
 * smallest value; null when empty.
 */
export function percentile(h: THistogram, q: number): number | null {
  if (h.count === 0) return null;
  const rank = Math.max(1, Math.ceil(Math.min(1, Math.max(0, q)) * h.count));
  let seen = 0;
  for (let i = 0; i < BUCKETS; i++) {
    seen += h.counts[i]!;
    if (seen >= rank) return bucketValue(i);
  }
  return bucketValue(BUCKETS - 1);
}

/** Values recorded at or below `ms` (whole buckets whose upper bound is at most `ms`), for Prometheus `le`. */
export function countAtOrBelow(h: THistogram, ms: number): number {
  if (ms === Infinity) return h.count;
  let n = 0;
  for (let i = 0; i < BUCKETS; i++) {
    if (bucketBounds(i)[1] > ms) break;
    n += h.counts[i]!;
  }
  return n;
}

/** Sparse fields, `{ "<bucket>": count, n: count, s: sumMicros }`: what a Redis hash holds per histogram. */
export function toFields(h: THistogram): Record<string, number> {
  const out: Record<string, number> = {};
  for (let i = 0; i < BUCKETS; i++) if (h.counts[i]) out[String(i)] = h.counts[i]!;
  out.n = h.count;
  out.s = h.sumMicros;
  return out;
}

/** The inverse of toFields; unknown or malformed fields are ignored. */
export function fromFields(fields: Record<string, string | number>): THistogram {
  const h = createHistogram();
  for (const [k, raw] of Object.entries(fields)) {
    const v = Number(raw);
    if (!Number.isFinite(v)) continue;
    if (k === 'n') h.count = v;
    else if (k === 's') h.sumMicros = v;
    else if (/^\d+$/.test(k) && Number(k) < BUCKETS) h.counts[Number(k)] = v;
  }
  return h;
}
