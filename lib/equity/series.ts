/**
 * P&L over time, pure (README "P&L over time"): the ranges' first closes, and the summary of a
 * series of points (the daily closes of equity_snapshots in a range plus a live "now" point).
 * Exact decimals throughout: nothing here is summed as a float.
 */
import { dec, toDecimalString, type TDecimal } from '@/lib/money/decimal';
import { roiOf } from '@/lib/ledger/account-numbers';

export const PNL_RANGES = ['day', 'week', 'month', 'all'] as const;
export type TPnlRange = (typeof PNL_RANGES)[number];

/** One point: decimal strings; the product split is null on closes written before it existed (migration 0027). */
export type TPnlPoint = {
  at: string;
  equity: string;
  pnl: string;
  pnlPredictions: string | null;
  pnlPerps: string | null;
  pnlPools: string | null;
};

export type TPnlSummary = {
  /** The P&L made over the range (all: since the account began). */
  pnl: string;
  /** pnl ÷ (equity at the range's start + contributions during it); all: pnl ÷ contributions. A fraction. */
  roi: string;
  /** The largest fall of equity from a running peak: as a fraction of that peak (in [0, 1]) and in money (≥ 0). */
  maxDrawdown: { fraction: string; amount: string };
  startEquity: string;
  endEquity: string;
  /** The range's P&L by product (Σ = pnl), null when a point of the two ends has no split. */
  products: { predictions: string; perps: string; pools: string } | null;
};

const DAY_MS = 86_400_000;
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/** How many days back each range starts (day: yesterday's close). */
const RANGE_DAYS: Record<Exclude<TPnlRange, 'all'>, number> = { day: 1, week: 7, month: 30 };

/**
 * The day of the close a range starts from (the series starts at the last close on or before
 * it), null for `all`. `day` is yesterday's close, so its series is that close and now.
 */
export function rangeStartDay(range: TPnlRange, at: Date): string | null {
  if (range === 'all') return null;
  return dayOf(new Date(at.getTime() - RANGE_DAYS[range] * DAY_MS));
}

const ZERO_POINT = { equity: '0', pnl: '0', pnlPredictions: '0', pnlPerps: '0', pnlPools: '0' };

/** Largest fall of equity from its running peak: fraction of the peak and amount (each its own maximum). */
export function maxDrawdownOf(equities: readonly string[]): { fraction: TDecimal; amount: TDecimal } {
  let peak: TDecimal | null = null;
  let fraction = dec(0);
  let amount = dec(0);
  for (const e of equities) {
    const v = dec(e);
    if (peak === null || v.gt(peak)) {
      peak = v;
      continue;
    }
    const fall = peak.minus(v);
    if (fall.gt(amount)) amount = fall;
    if (peak.gt(0)) {
      const f = fall.div(peak);
      const clamped = f.gt(1) ? dec(1) : f;
      if (clamped.gt(fraction)) fraction = clamped;
    }
  }
  return { fraction: fraction.toDecimalPlaces(8), amount };
}

/**
 * The summary of a series (oldest first). `fromOrigin` (the `all` range): the P&L and ROI count
 * from the account's beginning (nothing, nothing made), not from the first point.
 */
export function summarizePnlSeries(points: readonly TPnlPoint[], opts: { fromOrigin: boolean }): TPnlSummary {
  const last = points[points.length - 1];
  const first = points[0];
  if (!last || !first) {
    return { pnl: '0', roi: '0', maxDrawdown: { fraction: '0', amount: '0' }, startEquity: '0', endEquity: '0', products: { predictions: '0', perps: '0', pools: '0' } };
  }
  const start = opts.fromOrigin ? ZERO_POINT : first;
  const pnl = dec(last.pnl).minus(start.pnl);
  // Contributions are equity − pnl at each point: the base is what was at stake at the start plus what came in since.
  const contributionsIn = dec(last.equity).minus(last.pnl).minus(dec(start.equity).minus(start.pnl));
  const base = dec(start.equity).plus(contributionsIn);
  const split = (p: Pick<TPnlPoint, 'pnlPredictions' | 'pnlPerps' | 'pnlPools'>) =>
    p.pnlPredictions === null || p.pnlPerps === null || p.pnlPools === null ? null : { predictions: p.pnlPredictions, perps: p.pnlPerps, pools: p.pnlPools };
  const a = split(start);
  const b = split(last);
  const dd = maxDrawdownOf(points.map((p) => p.equity));
  return {
    pnl: toDecimalString(pnl),
    roi: toDecimalString(roiOf(pnl, base)),
    maxDrawdown: { fraction: toDecimalString(dd.fraction), amount: toDecimalString(dd.amount) },
    startEquity: toDecimalString(dec(first.equity)),
    endEquity: toDecimalString(dec(last.equity)),
    products:
      a && b
        ? {
            predictions: toDecimalString(dec(b.predictions).minus(a.predictions)),
            perps: toDecimalString(dec(b.perps).minus(a.perps)),
            pools: toDecimalString(dec(b.pools).minus(a.pools)),
          }
        : null,
  };
}
