import { afterEach, describe, expect, it } from 'vitest';
import { groupOf } from './groups';
import { percentile } from './histogram';
import { formatPrometheus } from './prometheus';
import { FLUSH_INTERVAL_MS, flushMetrics, localLastHour, metricsState, observeRequest, observeSseDelivery, resetMetrics, setMinuteSink } from './recorder';
import { describeLatency } from './status';
import { createMetricsStore, memoryHashClient } from './store';

const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);
const buy = { id: 'predictions.buy', requires: ['trade'] };
const list = { id: 'predictions.list', requires: ['read'] };

afterEach(() => {
  resetMetrics();
  setMinuteSink(null);
});

describe('route groups', () => {
  it('one table: agent transports by id, then the strongest permission required', () => {
    expect(groupOf({ id: 'a2a.rpc', requires: [] })).toBe('agent');
    expect(groupOf({ id: 'mcp.rpc', requires: [] })).toBe('agent');
    expect(groupOf({ id: 'auth.session', requires: ['account'] })).toBe('auth');
    expect(groupOf({ id: 'admin.stats', requires: ['read', 'admin'] })).toBe('admin');
    expect(groupOf({ id: 'admin.reports', requires: ['read', 'moderate'] })).toBe('admin');
    expect(groupOf(buy)).toBe('trade');
    expect(groupOf({ id: 'posts.create', requires: ['social'] })).toBe('social');
    expect(groupOf(list)).toBe('read');
    expect(groupOf({ id: 'cron.gameTick.get' })).toBe('other');
  });
});

describe('the recorder', () => {
  it('keeps per route histograms and status classes, per group minutes, and SSE deliveries', () => {
    setMinuteSink(null);
    observeRequest(buy, 200, 12, T0);
    observeRequest(buy, 409, 30, T0);
    observeRequest(list, 200, 3, T0 + 61_000);
    observeSseDelivery(80, 5, T0);
    const st = metricsState();
    expect(st.routes.get('predictions.buy')!.histogram.count).toBe(2);
    expect(Array.from(st.routes.get('predictions.buy')!.statuses)).toEqual([0, 0, 1, 0, 1, 0]);
    const hour = localLastHour(T0 + 61_000);
    expect(hour.get('trade')!.count).toBe(2);
    expect(hour.get('read')!.count).toBe(1);
    expect(hour.get('sse')!.count).toBe(5);
    // An hour later, the first minute has left the window.
    expect(localLastHour(T0 + 60 * 60_000).get('trade')).toBeUndefined();
    expect(st.pending.size).toBe(0); // no store: nothing kept for it
  });

  it('flushes per-minute counts to the store at most every 10 s, off the request, and the store sums instances', async () => {
    const client = memoryHashClient();
    const store = createMetricsStore(client, 'memory');
    setMinuteSink(store);
    const now = Date.now();
    observeRequest(buy, 200, 20, now);
    expect(metricsState().flushScheduled).toBe(true);
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(client.hashes.size).toBe(1);
    observeRequest(buy, 200, 40, now + 1000); // within 10 s: kept pending, flushed by a timer
    expect(metricsState().flushScheduled).toBe(true);
    expect(metricsState().pending.size).toBe(1);
    expect(client.hashes.get(`pm:lat:${Math.floor(now / 60_000)}`)!.get('trade:n')).toBe(1);
    // Another instance's flush of the same minute adds up.
    await store.add(Math.floor(now / 60_000), new Map([['trade', localLastHour(now).get('trade')!]]));
    await flushMetrics(now + FLUSH_INTERVAL_MS);
    const shared = await store.readLastHour(now + 2000);
    expect(shared.get('trade')!.count).toBe(4);
    expect(percentile(shared.get('trade')!, 0.5)).toBeCloseTo(20, -1);
  });

  it('a failing store loses the flush, never the caller', async () => {
    setMinuteSink({ kind: 'memory', add: () => Promise.reject(new Error('down')), readLastHour: () => Promise.reject(new Error('down')) });
    observeRequest(buy, 500, 5);
    await expect(flushMetrics()).resolves.toBeUndefined();
  });
});

describe('status and Prometheus text', () => {
  it('p50/p99 per group against the published targets', () => {
    setMinuteSink(null);
    for (let i = 0; i < 100; i++) observeRequest(buy, 200, i < 98 ? 10 : 400, T0);
    observeSseDelivery(200, 10, T0);
    const s = describeLatency(localLastHour(T0), 'local', T0);
    const trade = s.groups.find((g) => g.group === 'trade')!;
    expect(trade.count).toBe(100);
    expect(trade.p50Ms).toBeCloseTo(10, -1);
    expect(trade.p99Ms).toBeGreaterThan(390);
    expect(trade.met).toBe(false);
    expect(s.targets).toEqual([
      { group: 'trade', percentile: 'p50', thresholdMs: 50, valueMs: trade.p50Ms, met: true },
      { group: 'trade', percentile: 'p99', thresholdMs: 250, valueMs: trade.p99Ms, met: false },
      { group: 'sse', percentile: 'p99', thresholdMs: 1000, valueMs: s.groups.find((g) => g.group === 'sse')!.p99Ms, met: true },
    ]);
    expect(s.groups.find((g) => g.group === 'read')).toMatchObject({ count: 0, p50Ms: null, met: null, target: null });
  });

  it('exposes histograms with le buckets, _sum and _count, and status-class counters', () => {
    observeRequest(buy, 200, 4, T0);
    observeRequest(buy, 503, 120, T0);
    const st = metricsState();
    const text = formatPrometheus(st.routes.values(), st.sse, { startedAtMs: T0, nowMs: T0 + 5000, residentBytes: 1, heapUsedBytes: 2 });
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(text).toContain('http_request_duration_seconds_bucket{route="predictions.buy",group="trade",le="0.005"} 1');
    expect(text).toContain('http_request_duration_seconds_bucket{route="predictions.buy",group="trade",le="0.1"} 1');
    expect(text).toContain('http_request_duration_seconds_bucket{route="predictions.buy",group="trade",le="+Inf"} 2');
    expect(text).toContain('http_request_duration_seconds_sum{route="predictions.buy",group="trade"} 0.124');
    expect(text).toContain('http_request_duration_seconds_count{route="predictions.buy",group="trade"} 2');
    expect(text).toContain('http_requests_total{route="predictions.buy",group="trade",status_class="5xx"} 1');
    expect(text).toContain('process_uptime_seconds 5');
    expect(text.endsWith('\n')).toBe(true);
  });
});
