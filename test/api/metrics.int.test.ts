/**
 * Published latency against the real handlers: every answer of route() (and of the A2A
 * transport) is recorded per endpoint; GET /api/metrics shows it as Prometheus text to
 * administrators and to a scraper holding METRICS_TOKEN (401 for guests, 403 for players);
 * GET /api/status answers p50/p99 per route group, from this process or from the shared store.
 */
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { POST as a2aRoute } from '@/app/api/a2a/route';
import { GET as healthRoute } from '@/app/api/health/route';
import { GET as predictionsRoute } from '@/app/api/markets/predictions/route';
import { GET as metricsRoute, POST as metricsPost } from '@/app/api/metrics/route';
import { GET as statusRoute } from '@/app/api/status/route';
import { GET as sseRoute } from '@/app/api/sse/events/route';
import { GET as meRoute } from '@/app/api/users/me/route';
import { withTransaction } from '@/db/client';
import type { TUserRow } from '@/db/schema';
import { resetEnvCache } from '@/lib/env';
import { createHistogram, record } from '@/lib/metrics/histogram';
import { emitEvent } from '@/lib/events/outbox';
import { flushMetrics, metricsState, observeSseDelivery, resetMetrics, setMinuteSink } from '@/lib/metrics/recorder';
import { ensureRealtime, pokeRealtime, stopRealtime } from '@/lib/realtime';
import { resetLatencyStatusCache } from '@/lib/metrics/status';
import { createMetricsStore, memoryHashClient } from '@/lib/metrics/store';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { seedUser } from '@/test/factories';
import { call, tokenFor } from '@/test/http';
import { DELIVERY_WAIT, readFrames } from '@/test/sse';

const METRICS_TOKEN = 'metrics-scraper-token-0123456789abcdef';

const withEnv = async (vars: Record<string, string>, fn: () => Promise<void>) => {
  const saved = { ...process.env };
  Object.assign(process.env, vars);
  resetEnvCache();
  try {
    await fn();
  } finally {
    process.env = saved;
    resetEnvCache();
  }
};

let admin: TUserRow;
let player: TUserRow;
let adminToken: string;
let playerToken: string;

beforeAll(async () => {
  admin = await seedUser({ isAdmin: true });
  player = await seedUser();
  adminToken = await tokenFor(admin);
  playerToken = await tokenFor(player);
  await ensureRealtime();
});

afterAll(async () => {
  await stopRealtime();
});

beforeEach(() => {
  setLimiter(createMemoryLimiter());
  resetMetrics();
  setMinuteSink(null);
  resetLatencyStatusCache();
});

const someCalls = async () => {
  for (let i = 0; i < 3; i++) expect((await call(predictionsRoute, '/api/markets/predictions')).status).toBe(200);
  expect((await call(meRoute, '/api/users/me', { token: playerToken })).status).toBe(200);
  expect((await call(meRoute, '/api/users/me')).status).toBe(401);
  expect((await call(healthRoute, '/api/health')).status).toBe(200);
  const rpc = await call(a2aRoute, '/api/a2a', { method: 'POST', token: playerToken, body: { jsonrpc: '2.0', id: 1, method: 'a2a.getBalance' } });
  expect(rpc.status).toBe(200);
};

/** The value of one sample line of the exposition. */
const sample = (text: string, line: string) => {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
};

describe('GET /api/metrics', () => {
  it('shows administrators each called route as a histogram, with status classes', async () => {
    await someCalls();
    const res = await call(metricsRoute, '/api/metrics', { token: adminToken });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const text = res.body as string;
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(sample(text, 'http_request_duration_seconds_count{route="predictions.list",group="read"}')).toBe(3);
    expect(sample(text, 'http_request_duration_seconds_bucket{route="predictions.list",group="read",le="+Inf"}')).toBe(3);
    expect(sample(text, 'http_request_duration_seconds_sum{route="predictions.list",group="read"}')).toBeGreaterThan(0);
    expect(sample(text, 'http_requests_total{route="users.me",group="read",status_class="2xx"}')).toBe(1);
    expect(sample(text, 'http_requests_total{route="users.me",group="read",status_class="4xx"}')).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count{route="a2a.rpc",group="agent"}')).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count{route="system.health",group="read"}')).toBe(1);
    expect(text).toContain('process_resident_memory_bytes ');
    // Cumulative buckets never decrease.
    const buckets = text.split('\n').filter((l) => l.startsWith('http_request_duration_seconds_bucket{route="predictions.list"')).map((l) => Number(l.split(' ').at(-1)));
    expect(buckets).toEqual([...buckets].sort((a, b) => a - b));
  });

  it('401 for a guest, 403 for a player (in JSON), 405 for other methods', async () => {
    const guest = await call(metricsRoute, '/api/metrics');
    expect(guest.status).toBe(401);
    expect(guest.body.error.code).toBe('UNAUTHORIZED');
    const mere = await call(metricsRoute, '/api/metrics', { token: playerToken });
    expect(mere.status).toBe(403);
    expect(mere.body.error.code).toBe('FORBIDDEN');
    expect((await call(metricsPost, '/api/metrics', { method: 'POST' })).status).toBe(405);
  });

  it('accepts Authorization: Bearer <METRICS_TOKEN>, and only that token, through the one wrapper (rate-limited, with a request id)', () =>
    withEnv({ METRICS_TOKEN }, async () => {
      await someCalls();
      const res = await call(metricsRoute, '/api/metrics', { token: METRICS_TOKEN });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
      expect(res.headers.get('x-request-id')).toBeTruthy();
      expect(sample(res.body as string, 'http_request_duration_seconds_count{route="predictions.list",group="read"}')).toBe(3);
      expect((await call(metricsRoute, '/api/metrics', { token: `${METRICS_TOKEN}x` })).status).toBe(401);
    }));

  it('without METRICS_TOKEN configured, no bearer token stands for it', async () => {
    expect((await call(metricsRoute, '/api/metrics', { token: METRICS_TOKEN })).status).toBe(401);
  });
});

describe('GET /api/status', () => {
  it('answers every group with counts and p50/p99, and the published targets (this process)', async () => {
    await someCalls();
    observeSseDelivery(120, 4);
    const res = await call(statusRoute, '/api/status');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, windowMinutes: 60, source: 'local' });
    const byGroup = Object.fromEntries(res.body.groups.map((g: { group: string }) => [g.group, g]));
    expect(Object.keys(byGroup).sort()).toEqual(['admin', 'agent', 'auth', 'other', 'read', 'social', 'sse', 'trade']);
    expect(byGroup.read.count).toBe(6);
    expect(byGroup.read.p50Ms).toEqual(expect.any(Number));
    expect(byGroup.read.p99Ms).toBeGreaterThanOrEqual(byGroup.read.p50Ms);
    expect(byGroup.agent.count).toBe(1);
    expect(byGroup.sse).toMatchObject({ count: 4, target: { p50Ms: null, p99Ms: 1000 }, met: true });
    expect(byGroup.trade).toMatchObject({ count: 0, p50Ms: null, p99Ms: null, target: { p50Ms: 50, p99Ms: 250 }, met: null });
    expect(res.body.targets.map((t: { group: string; percentile: string; thresholdMs: number }) => `${t.group} ${t.percentile} ${t.thresholdMs}`)).toEqual([
      'trade p50 50',
      'trade p99 250',
      'sse p99 1000',
    ]);
  });

  it('reads every instance from the shared store when there is one', async () => {
    const client = memoryHashClient();
    const store = createMetricsStore(client, 'memory');
    setMinuteSink(store);
    // Another instance's minute, already in the store.
    const other = new Map([['trade', createHistogram()]] as const);
    for (let i = 0; i < 10; i++) record(other.get('trade')!, 30);
    await store.add(Math.floor(Date.now() / 60_000), other);
    await someCalls();
    await flushMetrics();
    const res = await call(statusRoute, '/api/status');
    expect(res.status).toBe(200);
    expect(res.body.source).toBe('redis');
    const byGroup = Object.fromEntries(res.body.groups.map((g: { group: string }) => [g.group, g]));
    expect(byGroup.trade.count).toBe(10);
    expect(byGroup.trade.p50Ms).toBeCloseTo(30, -1);
    expect(byGroup.trade.met).toBe(true);
    // This process's calls reached the store too (flushed, or still pending and merged in).
    expect(byGroup.read.count).toBeGreaterThanOrEqual(6);
  });
});

describe('SSE delivery delay', () => {
  it('is observed when the hub hands a logged event to a subscriber', async () => {
    const abort = new AbortController();
    const url = new URL('http://localhost:3000/api/sse/events?channels=breaking-news');
    const res = await sseRoute(new NextRequest(url, { headers: { host: 'localhost:3000' }, signal: abort.signal }), { params: Promise.resolve({}) });
    expect(res.status).toBe(200);
    const stream = readFrames(res.body!);
    try {
      const data = { id: 'latency', title: 't', content: 'c', relatedQuestions: [], timestamp: new Date().toISOString() };
      await withTransaction((tx) => emitEvent(tx, 'breaking-news', { type: 'breaking_news', data }));
      await pokeRealtime();
      await vi.waitFor(() => expect(stream.frames.some((f) => f.event === 'breaking_news')).toBe(true), DELIVERY_WAIT);
      expect(metricsState().sse.count).toBeGreaterThanOrEqual(1);
      const status = await call(statusRoute, '/api/status');
      const sse = status.body.groups.find((g: { group: string }) => g.group === 'sse');
      expect(sse.count).toBeGreaterThanOrEqual(1);
      expect(sse.p99Ms).toBeGreaterThanOrEqual(0);
      expect(sse.p99Ms).toBeLessThan(10_000);
    } finally {
      await stream.close();
      abort.abort();
    }
  });
});
