/**
 * The published latency (GET /api/status, the /status page): p50 and p99 per route group and of
 * the SSE delivery delay over the last hour, every instance's when Redis holds them (./store.ts;
 * plus this process's counts not yet flushed), else this process's, against the published
 * targets. Computed at most every CACHE_MS per process.
 */
import { percentile, mergeInto, createHistogram, type THistogram } from './histogram';
import { LATENCY_TARGETS, SERIES, type TSeries } from './groups';
import { localLastHour, metricsStore, WINDOW_MINUTES } from './recorder';
import { READ_TIMEOUT_MS, withTimeout } from './store';

export const CACHE_MS = 5_000;

export type TSeriesStatus = {
  group: TSeries;
  count: number;
  p50Ms: number | null;
  p99Ms: number | null;
  target: { p50Ms: number | null; p99Ms: number | null } | null;
  /** null: no target, or nothing measured. */
  met: boolean | null;
};
export type TTargetStatus = { group: TSeries; percentile: 'p50' | 'p99'; thresholdMs: number; valueMs: number | null; met: boolean | null };
export type TLatencyStatus = {
  windowMinutes: number;
  source: 'redis' | 'local';
  generatedAt: string;
  groups: TSeriesStatus[];
  targets: TTargetStatus[];
};

const round = (v: number | null) => (v === null ? null : Math.round(v * 10) / 10);

/** The status of histograms per series (pure). */
export function describeLatency(bySeries: ReadonlyMap<TSeries, THistogram>, source: TLatencyStatus['source'], now: number): TLatencyStatus {
  const targets: TTargetStatus[] = [];
  const groups = SERIES.map((group): TSeriesStatus => {
    const h = bySeries.get(group) ?? createHistogram();
    const p50 = round(percentile(h, 0.5));
    const p99 = round(percentile(h, 0.99));
    const t = LATENCY_TARGETS[group];
    let met: boolean | null = null;
    if (t) {
      for (const [name, threshold, value] of [['p50', t.p50, p50], ['p99', t.p99, p99]] as const) {
        if (threshold === null) continue;
        const ok = value === null ? null : value < threshold;
        targets.push({ group, percentile: name, thresholdMs: threshold, valueMs: value, met: ok });
        if (ok !== null) met = (met ?? true) && ok;
      }
    }
    return { group, count: h.count, p50Ms: p50, p99Ms: p99, target: t ? { p50Ms: t.p50, p99Ms: t.p99 } : null, met };
  });
  return { windowMinutes: WINDOW_MINUTES, source, generatedAt: new Date(now).toISOString(), groups, targets };
}

const KEY = Symbol.for('playmoney.metrics.status');
type TGlobal = typeof globalThis & { [KEY]?: { at: number; value: Promise<TLatencyStatus> } };
const g = globalThis as TGlobal;

const compute = async (now: number): Promise<TLatencyStatus> => {
  const store = metricsStore();
  if (store) {
    try {
      const shared = await withTimeout(store.readLastHour(now), READ_TIMEOUT_MS);
      for (const [s, h] of localLastHour(now, 'pending')) mergeInto(shared.get(s) ?? shared.set(s, createHistogram()).get(s)!, h);
      return describeLatency(shared, 'redis', now);
    } catch {
      /* Redis unavailable: this process's numbers */
    }
  }
  return describeLatency(localLastHour(now), 'local', now);
};

/** The latency status, cached CACHE_MS. */
export function latencyStatus(now = Date.now()): Promise<TLatencyStatus> {
  const cached = g[KEY];
  if (cached && now - cached.at < CACHE_MS && now >= cached.at) return cached.value;
  const value = compute(now);
  g[KEY] = { at: now, value };
  return value;
}

/** Forgets the cached status (tests). */
export function resetLatencyStatusCache() {
  g[KEY] = undefined;
}
