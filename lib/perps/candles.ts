/**
 * OHLC candles from a ticker's price points. Pure: no I/O, no arithmetic on prices (a candle only
 * picks prices, so it is exact for any numeric input).
 *
 * Semantics (the SQL in service/read-candles.ts follows them, and an integration test compares
 * the two point by point):
 * - Buckets are aligned to the interval from the Unix epoch (UTC): a point at `at` ms falls in the
 *   bucket starting at floor(at / interval) · interval, so every point is in exactly one bucket.
 * - Points are taken in time order; points at the same instant keep their input order (the
 *   server orders them by time, then id).
 * - A candle's open is its bucket's first point, its close the last, high and low the extremes.
 * - Empty buckets are left out (no flat candles are invented): a gap in the chart is a time
 *   when the mark did not move and nothing traded.
 * - One function for every interval: the interval is only the bucket width.
 */

export const CANDLE_INTERVALS = { '5m': 300_000, '15m': 900_000, '1h': 3_600_000, '4h': 14_400_000, '1d': 86_400_000 } as const;
export type TCandleInterval = keyof typeof CANDLE_INTERVALS;

export type TPricePoint = { at: number; price: number };
export type TCandle = { start: number; open: number; high: number; low: number; close: number; count: number };

/** The start (ms) of the bucket that holds `at` for an interval of `intervalMs`. */
export function bucketStart(at: number, intervalMs: number) {
  return Math.floor(at / intervalMs) * intervalMs;
}

/**
 * Candles of `points` for buckets `intervalMs` wide, oldest first; buckets without points are left out.
 * Throws on a non-positive or non-integer interval.
 */
export function buildCandles(points: readonly TPricePoint[], intervalMs: number): TCandle[] {
  if (!Number.isInteger(intervalMs) || intervalMs <= 0) throw new RangeError(`interval must be a positive integer of ms, got ${intervalMs}`);
  // Array.prototype.sort is stable: points at the same instant keep their order.
  const sorted = [...points].sort((a, b) => a.at - b.at);
  const candles: TCandle[] = [];
  for (const p of sorted) {
    const start = bucketStart(p.at, intervalMs);
    const last = candles.at(-1);
    if (last && last.start === start) {
      last.high = Math.max(last.high, p.price);
      last.low = Math.min(last.low, p.price);
      last.close = p.price;
      last.count += 1;
    } else {
      candles.push({ start, open: p.price, high: p.price, low: p.price, close: p.price, count: 1 });
    }
  }
  return candles;
}

const RANGE_INTERVALS = { '1h': '5m', '24h': '1h', '7d': '4h', '30d': '1d', all: '1d' } as const satisfies Record<string, TCandleInterval>;

/** The candle width a chart of a range reads well with (a few dozen candles). */
export function intervalForRange(range: keyof typeof RANGE_INTERVALS): TCandleInterval {
  return RANGE_INTERVALS[range];
}
