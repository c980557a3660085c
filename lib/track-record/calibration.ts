/**
 * Calibration of a forecaster: pure, no I/O. A forecast is the probability of YES a player's buys
 * in a question implied (lib/reputation/inputs.ts derives it: the amount-weighted mean of what
 * each buy said) and the question's outcome (1 YES, 0 NO). The Brier score is the mean squared
 * error (0 perfect, 0.25 a coin, 1 always wrong); the buckets group forecasts by probability so
 * a chart can set "said 70–80 %" against "happened 60 % of the time".
 */

export type TForecast = { p: number; o: 0 | 1 };

export type TCalibrationBucket = {
  /** The bucket's probability range [from, to) (the last one includes 1). */
  from: number;
  to: number;
  forecasts: number;
  /** The mean forecast in the bucket, null when empty. */
  meanForecast: number | null;
  /** How often the bucket's questions resolved YES, null when empty. */
  outcomeRate: number | null;
};

export const CALIBRATION_BUCKETS = 5;

/** The Brier score of the forecasts, null without any. */
export function brierScore(forecasts: readonly TForecast[]) {
  return forecasts.length === 0 ? null : forecasts.reduce((s, f) => s + (f.p - f.o) ** 2, 0) / forecasts.length;
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;

/** The forecasts in `n` equal probability buckets, every bucket listed (empty ones with nulls). */
export function calibrationBuckets(forecasts: readonly TForecast[], n = CALIBRATION_BUCKETS): TCalibrationBucket[] {
  const sums = Array.from({ length: n }, () => ({ count: 0, p: 0, o: 0 }));
  for (const f of forecasts) {
    const i = Math.min(n - 1, Math.max(0, Math.floor(f.p * n)));
    sums[i]!.count++;
    sums[i]!.p += f.p;
    sums[i]!.o += f.o;
  }
  return sums.map((s, i) => ({
    from: round(i / n),
    to: round((i + 1) / n),
    forecasts: s.count,
    meanForecast: s.count ? round(s.p / s.count) : null,
    outcomeRate: s.count ? round(s.o / s.count) : null,
  }));
}
