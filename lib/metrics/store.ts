/**
 * Latency across instances, in Redis (the rate limiter's configuration: UPSTASH_REDIS_REST_URL
 * with its token, else REDIS_URL; lib/operations/rate-limit.ts). One hash per minute,
 * `pm:lat:<unix minute>`, kept 65 minutes; its fields are `<series>:<bucket>` (counts),
 * `<series>:n` (count) and `<series>:s` (sum in µs), and every instance adds its flushed counts
 * with HINCRBY, in one pipeline per minute flushed: sums of counts merge exactly, whatever the
 * order. Reading the last hour is one pipeline of 60 HGETALLs. No Redis: no store (the status
 * then describes this process only).
 */
import { env, type TEnv } from '@/lib/env';
import { createHistogram, fromFields, mergeInto, toFields, type THistogram } from './histogram';
import { SERIES, type TSeries } from './groups';

export const MINUTE_MS = 60_000;
export const WINDOW_MINUTES = 60;
export const KEY_PREFIX = 'pm:lat:';
export const TTL_S = 65 * 60;
/** A status read that takes longer falls back to this process's numbers. */
export const READ_TIMEOUT_MS = 1_000;

export type TMetricsStore = {
  kind: 'redis' | 'upstash' | 'memory';
  add: (minute: number, series: ReadonlyMap<TSeries, THistogram>) => Promise<unknown>;
  /** Each series merged over the last WINDOW_MINUTES minutes, every instance's. */
  readLastHour: (now?: number) => Promise<Map<TSeries, THistogram>>;
};

/** What the store needs of a Redis client. */
export type THashClient = {
  incrementAll: (key: string, fields: Record<string, number>, ttlSeconds: number) => Promise<unknown>;
  readAll: (keys: readonly string[]) => Promise<(Record<string, unknown> | null)[]>;
};

const isSeries = (s: string): s is TSeries => (SERIES as readonly string[]).includes(s);

export function createMetricsStore(client: THashClient, kind: TMetricsStore['kind'], prefix = KEY_PREFIX): TMetricsStore {
  return {
    kind,
    add: async (minute, series) => {
      const fields: Record<string, number> = {};
      for (const [s, h] of series) {
        if (h.count === 0) continue;
        for (const [k, v] of Object.entries(toFields(h))) fields[`${s}:${k}`] = v;
      }
      if (Object.keys(fields).length) await client.incrementAll(`${prefix}${minute}`, fields, TTL_S);
    },
    readLastHour: async (now = Date.now()) => {
      const last = Math.floor(now / MINUTE_MS);
      const keys = Array.from({ length: WINDOW_MINUTES }, (_, i) => `${prefix}${last - i}`);
      const hashes = await client.readAll(keys);
      const out = new Map<TSeries, THistogram>();
      for (const hash of hashes) {
        if (!hash) continue;
        const bySeries = new Map<string, Record<string, string>>();
        for (const [field, value] of Object.entries(hash)) {
          const at = field.lastIndexOf(':');
          const s = field.slice(0, at);
          if (!isSeries(s)) continue;
          let f = bySeries.get(s);
          if (!f) bySeries.set(s, (f = {}));
          f[field.slice(at + 1)] = String(value);
        }
        for (const [s, f] of bySeries) {
          let into = out.get(s as TSeries);
          if (!into) out.set(s as TSeries, (into = createHistogram()));
          mergeInto(into, fromFields(f));
        }
      }
      return out;
    },
  };
}

/** An in-memory hash store (tests; shaped like Redis's HINCRBY and HGETALL). */
export function memoryHashClient(): THashClient & { hashes: Map<string, Map<string, number>> } {
  const hashes = new Map<string, Map<string, number>>();
  return {
    hashes,
    incrementAll: async (key, fields) => {
      let h = hashes.get(key);
      if (!h) hashes.set(key, (h = new Map()));
      for (const [f, v] of Object.entries(fields)) h.set(f, (h.get(f) ?? 0) + v);
    },
    readAll: async (keys) => keys.map((k) => (hashes.has(k) ? Object.fromEntries(hashes.get(k)!) : null)),
  };
}

type TPipeline = {
  hincrby: (key: string, field: string, by: number) => unknown;
  expire: (key: string, seconds: number) => unknown;
  hgetall: (key: string) => unknown;
  exec: () => Promise<unknown>;
};

/** A client over any Redis with pipelines (ioredis answers [error, value] pairs, Upstash the values). */
const pipelineClient = (pipeline: () => Promise<TPipeline>, pairs: boolean): THashClient => ({
  incrementAll: async (key, fields, ttl) => {
    const p = await pipeline();
    for (const [f, v] of Object.entries(fields)) p.hincrby(key, f, v);
    p.expire(key, ttl);
    await p.exec();
  },
  readAll: async (keys) => {
    const p = await pipeline();
    for (const k of keys) p.hgetall(k);
    const res = (await p.exec()) as unknown[];
    return res.map((r) => {
      const v = pairs ? (r as [unknown, unknown])[0] ? null : (r as [unknown, unknown])[1] : r;
      return v && typeof v === 'object' && Object.keys(v).length ? (v as Record<string, unknown>) : null;
    });
  },
});

/** The store the environment configures, or null without Redis. The client connects on first use. */
export function storeFromEnv(cfg: Pick<TEnv, 'upstashUrl' | 'upstashToken' | 'redisUrl'> = env(), prefix = KEY_PREFIX): TMetricsStore | null {
  if (cfg.upstashUrl && cfg.upstashToken) {
    const { upstashUrl: url, upstashToken: token } = cfg;
    let client: Promise<{ pipeline: () => TPipeline }> | undefined;
    const get = () => (client ??= import('@upstash/redis').then(({ Redis }) => new Redis({ url, token }) as unknown as { pipeline: () => TPipeline }));
    return createMetricsStore(pipelineClient(async () => (await get()).pipeline(), false), 'upstash', prefix);
  }
  if (cfg.redisUrl) {
    const url = cfg.redisUrl;
    let client: Promise<{ pipeline: () => TPipeline }> | undefined;
    const get = () =>
      (client ??= import('ioredis').then(({ default: IORedis }) => {
        const c = new IORedis(url, { maxRetriesPerRequest: 1, connectTimeout: 2_000 });
        c.on('error', () => {}); // a flush or a read fails instead; ioredis reconnects by itself
        return c as unknown as { pipeline: () => TPipeline };
      }));
    return createMetricsStore(pipelineClient(async () => (await get()).pipeline(), true), 'redis', prefix);
  }
  return null;
}

/** `promise`, or a rejection after `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), ms);
      timer.unref?.();
    }),
  ]).finally(() => clearTimeout(timer));
}
