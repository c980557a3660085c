/**
 * The statistics the exploit test and `npm run world-report` judge the world by (issue 31,
 * deliverable 8). Pure: numbers in, numbers out; no I/O, no clock.
 *
 * - `tTest`: the one-sample t statistic of a sample against zero, t = mean / (s / √n), s the
 *   sample standard deviation (n − 1). A strategy's per-bet returns with t ≥ 3 are a systematic
 *   win (about p < 0.0015 one-sided for the sample sizes here).
 * - `binomialZ`: outcomes against the probabilities they were born with, z = (ΣYES − Σp) / √Σp(1 − p).
 * - `brierScore`: the mean of (p − outcome)² (0 perfect, 0.25 a coin at ½).
 * - `reliability`: forecasts in equal-width bins of [0, 1] (the last bin includes 1), with the mean
 *   forecast and the observed YES rate of each.
 */

/** The arithmetic mean; NaN for an empty sample. */
export function mean(xs: readonly number[]) {
  if (xs.length === 0) return Number.NaN;
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

/** The sample standard deviation (n − 1 in the denominator); NaN below two values. */
export function sampleStdDev(xs: readonly number[]) {
  if (xs.length < 2) return Number.NaN;
  const m = mean(xs);
  let s = 0;
  for (const x of xs) s += (x - m) ** 2;
  return Math.sqrt(s / (xs.length - 1));
}

/** The standard error of the mean, s / √n; NaN below two values. */
export function standardError(xs: readonly number[]) {
  return sampleStdDev(xs) / Math.sqrt(xs.length);
}

export type TTTest = { n: number; mean: number; se: number; t: number };

/**
 * The one-sample t statistic of `xs` against zero. A sample with no spread has t = ±∞ when its
 * mean is not zero (every bet won the same: a certain edge) and 0 when it is; below two values 0.
 */
export function tTest(xs: readonly number[]): TTTest {
  const n = xs.length;
  const m = n > 0 ? mean(xs) : 0;
  if (n < 2) return { n, mean: m, se: Number.NaN, t: 0 };
  const se = standardError(xs);
  // No spread beyond rounding (identical returns): the mean's sign is certain.
  const t = se > 1e-12 * Math.max(1, Math.abs(m)) ? m / se : m === 0 ? 0 : m > 0 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
  return { n, mean: m, se, t };
}

export type TForecast = { p: number; outcome: 0 | 1 };

export type TBinomialZ = { n: number; yes: number; expected: number; sd: number; z: number };

/** Observed YES against Σp of the forecasts, in standard deviations of the binomial sum. */
export function binomialZ(xs: readonly TForecast[]): TBinomialZ {
  let yes = 0;
  let expected = 0;
  let variance = 0;
  for (const x of xs) {
    yes += x.outcome;
    expected += x.p;
    variance += x.p * (1 - x.p);
  }
  const sd = Math.sqrt(variance);
  return { n: xs.length, yes, expected, sd, z: sd > 0 ? (yes - expected) / sd : 0 };
}

/** The Brier score, mean (p − outcome)²; NaN for no forecasts. */
export function brierScore(xs: readonly TForecast[]) {
  return mean(xs.map((x) => (x.p - x.outcome) ** 2));
}

export type TReliabilityBin = { from: number; to: number; n: number; meanForecast: number; observed: number };

/** `bins` equal-width bins over [0, 1] (p = 1 in the last); an empty bin has NaN means. */
export function reliability(xs: readonly TForecast[], bins = 10): TReliabilityBin[] {
  const groups: TForecast[][] = Array.from({ length: bins }, () => []);
  for (const x of xs) {
    const p = Math.min(1, Math.max(0, x.p));
    groups[Math.min(bins - 1, Math.floor(p * bins))]!.push(x);
  }
  return groups.map((g, i) => ({
    from: i / bins,
    to: (i + 1) / bins,
    n: g.length,
    meanForecast: mean(g.map((x) => x.p)),
    observed: mean(g.map((x) => x.outcome)),
  }));
}
