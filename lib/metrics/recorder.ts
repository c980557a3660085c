/**
 * This process's latency record. `observeRequest` is the one call a transport makes per answer
 * (lib/http/route.ts, the A2A and MCP routes): a few array increments, no I/O, no allocation once
 * the route and the minute exist. It feeds
 *   - per endpoint, since the process started: a histogram and status-class counters (GET
 *     /api/metrics, Prometheus: one scrape per instance, counters only grow);
 *   - per series (route group, and `sse` for the delivery delay of realtime events), per minute,
 *     for the last hour: what /api/status reads when there is no Redis;
 *   - the same per-minute series not yet flushed to Redis (./store.ts), when a store is
 *     configured. An observation schedules a flush off the request (setImmediate, or a timer
 *     until the last flush is FLUSH_INTERVAL_MS old): at most one per 10 s, none while idle;
 *     fire and forget, a failed flush is dropped.
 * State lives on globalThis: Next.js bundles each route separately, and all must share it.
 */
import { createHistogram, mergeInto, record, type THistogram } from './histogram';
import { groupOf, SSE_SERIES, type TGroupable, type TRouteGroup, type TSeries } from './groups';
import { MINUTE_MS, storeFromEnv, WINDOW_MINUTES, type TMetricsStore } from './store';

export { MINUTE_MS, WINDOW_MINUTES };
export const FLUSH_INTERVAL_MS = 10_000;

/** Status classes counted per route: 1xx … 5xx (index 1 … 5; 0: anything else). */
export const STATUS_CLASSES = ['other', '1xx', '2xx', '3xx', '4xx', '5xx'] as const;

export type TRouteStats = { id: string; group: TRouteGroup; histogram: THistogram; statuses: Float64Array };
export type TSeriesByMinute = Map<number, Map<TSeries, THistogram>>;

/** Where flushed minutes go, and where the status reads the last hour of every instance. */
export type TMinuteSink = TMetricsStore;

type TState = {
  startedAt: number;
  routes: Map<string, TRouteStats>;
  sse: THistogram;
  minutes: TSeriesByMinute;
  pending: TSeriesByMinute;
  lastFlush: number;
  flushScheduled: boolean;
  /** undefined: not decided yet; null: no store (nothing is kept pending). */
  sink: TMinuteSink | null | undefined;
  /** Decides the sink on first use (default: ./store.ts storeFromEnv; tests replace it). */
  resolveSink?: () => TMinuteSink | null;
};

const KEY = Symbol.for('playmoney.metrics');
type TGlobal = typeof globalThis & { [KEY]?: TState };
const g = globalThis as TGlobal;

const fresh = (): TState => ({
  startedAt: Date.now(),
  routes: new Map(),
  sse: createHistogram(),
  minutes: new Map(),
  pending: new Map(),
  lastFlush: 0,
  flushScheduled: false,
  sink: undefined,
});

export function metricsState(): TState {
  return (g[KEY] ??= fresh());
}

/** Forgets everything recorded (tests). Keeps the sink resolver. */
export function resetMetrics() {
  const resolveSink = g[KEY]?.resolveSink;
  g[KEY] = { ...fresh(), resolveSink };
}

/** Sets how the store is found (a function), or the store itself (tests; null: none). */
export function setMinuteSink(sink: TMinuteSink | null | (() => TMinuteSink | null)) {
  const st = metricsState();
  if (typeof sink === 'function') {
    st.resolveSink = sink;
    st.sink = undefined;
  } else st.sink = sink;
}

const sinkOf = (st: TState) => {
  if (st.sink === undefined) {
    try {
      st.sink = (st.resolveSink ?? storeFromEnv)();
    } catch {
      st.sink = null;
    }
  }
  return st.sink;
};

/** The cross-instance store, or null when none is configured. */
export function metricsStore(): TMinuteSink | null {
  return sinkOf(metricsState());
}

const seriesAt = (by: TSeriesByMinute, minute: number, series: TSeries, prune: boolean) => {
  let m = by.get(minute);
  if (!m) {
    m = new Map();
    by.set(minute, m);
    if (prune) for (const k of by.keys()) if (k <= minute - WINDOW_MINUTES) by.delete(k);
  }
  let h = m.get(series);
  if (!h) m.set(series, (h = createHistogram()));
  return h;
};

const noteSeries = (st: TState, series: TSeries, ms: number, n: number, now: number) => {
  const minute = Math.floor(now / MINUTE_MS);
  record(seriesAt(st.minutes, minute, series, true), ms, n);
  if (sinkOf(st)) {
    record(seriesAt(st.pending, minute, series, false), ms, n);
    if (!st.flushScheduled) {
      // Off the request: right away when the last flush is 10 s old, else when it will be.
      st.flushScheduled = true;
      const wait = FLUSH_INTERVAL_MS - (now - st.lastFlush);
      if (wait <= 0) setImmediate(() => void flushMetrics());
      else setTimeout(() => void flushMetrics(), wait).unref?.();
    }
  }
};

/** One answer of `endpoint`: its status and the time from the transport's entry to its Response. */
export function observeRequest(endpoint: TGroupable, status: number, ms: number, now = Date.now()) {
  const st = metricsState();
  let r = st.routes.get(endpoint.id);
  if (!r) st.routes.set(endpoint.id, (r = { id: endpoint.id, group: groupOf(endpoint), histogram: createHistogram(), statuses: new Float64Array(6) }));
  record(r.histogram, ms);
  const cls = Math.floor(status / 100);
  r.statuses[cls >= 1 && cls <= 5 ? cls : 0]! += 1;
  noteSeries(st, r.group, ms, 1, now);
}

/** A realtime event handed to `n` SSE subscribers `ms` after it was logged. */
export function observeSseDelivery(ms: number, n = 1, now = Date.now()) {
  if (n <= 0) return;
  const st = metricsState();
  record(st.sse, ms, n);
  noteSeries(st, SSE_SERIES, ms, n, now);
}

/** Sends what is pending to the sink; never throws. Resolves when done (tests await it). */
export async function flushMetrics(now = Date.now()): Promise<void> {
  const st = metricsState();
  st.flushScheduled = false;
  st.lastFlush = now;
  const sink = sinkOf(st);
  if (!sink || st.pending.size === 0) return;
  const pending = st.pending;
  st.pending = new Map();
  await Promise.all([...pending].map(([minute, series]) => sink.add(minute, series).catch(() => {}))).catch(() => {});
}

/** Each series merged over the minutes of the last hour (this process), and over what is not yet flushed. */
export function localLastHour(now = Date.now(), source: 'minutes' | 'pending' = 'minutes'): Map<TSeries, THistogram> {
  const st = metricsState();
  const from = Math.floor(now / MINUTE_MS) - WINDOW_MINUTES;
  const out = new Map<TSeries, THistogram>();
  for (const [minute, series] of source === 'minutes' ? st.minutes : st.pending) {
    if (minute <= from) continue;
    for (const [s, h] of series) {
      let into = out.get(s);
      if (!into) out.set(s, (into = createHistogram()));
      mergeInto(into, h);
    }
  }
  return out;
}

/** A handler whose answers are observed as `endpoint`'s (transports outside route(): A2A, MCP). */
export function timed<A extends unknown[]>(endpoint: TGroupable, handler: (...args: A) => Promise<Response>) {
  return async (...args: A): Promise<Response> => {
    const started = performance.now();
    let status = 500;
    try {
      const res = await handler(...args);
      status = res.status;
      return res;
    } finally {
      observeRequest(endpoint, status, performance.now() - started);
    }
  };
}
