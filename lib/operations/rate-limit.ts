/**
 * Rate limiting with a sliding window (@upstash/ratelimit's algorithm) over one of three stores,
 * picked by the environment: Upstash Redis (UPSTASH_REDIS_REST_URL), a self-hosted Redis
 * (REDIS_URL, through the ioredis adapter) or process memory. Counters are per rule and per
 * identity (user id, or client address for anonymous calls).
 * An outage of the counter store must neither take the API down nor switch the limits off: while
 * Redis is not connected (ioredis status, checked without queueing) or does not answer within
 * STORE_TIMEOUT_MS, every instance counts in its own memory (limits then hold per instance), logs
 * one warning for the outage, and goes back to Redis, with one more log line, once it answers again
 * (createFallbackLimiter; test/ops/faults.test.ts stops a real Redis under a server).
 */
import { Ratelimit } from '@upstash/ratelimit';
import { env } from '@/lib/env';
import { RATE_LIMITS, type TRateLimitRule } from '@/lib/contracts/rate-limits';
import { createIoredisAdapter } from './redis-adapter';

export type TLimitResult = {
  success: boolean;
  limit: number;
  remaining: number;
  /** Unix milliseconds at which the current window ends. */
  reset: number;
};

export type TLimiter = {
  kind: 'memory' | 'redis' | 'upstash';
  limit: (rule: TRateLimitRule, identity: string) => Promise<TLimitResult>;
};

/**
 * In-process sliding window: the previous fixed window's count weighted by how much of it still
 * overlaps, plus the current window's count, the same estimate the Redis scripts make.
 */
export function createMemoryLimiter(clock: () => number = Date.now): TLimiter & { reset: () => void } {
  const counts = new Map<string, number>();
  let lastSweep = 0;
  const sweep = (nowMs: number) => {
    if (nowMs - lastSweep < 60_000) return;
    lastSweep = nowMs;
    for (const key of counts.keys()) {
      const [, windowSec, index] = key.split('|');
      if (Number(index) < Math.floor(nowMs / (Number(windowSec) * 1000)) - 1) counts.delete(key);
    }
  };
  return {
    kind: 'memory',
    reset: () => counts.clear(),
    limit: async (rule, identity) => {
      const { limit, windowSec } = RATE_LIMITS[rule];
      const windowMs = windowSec * 1000;
      const nowMs = clock();
      sweep(nowMs);
      const index = Math.floor(nowMs / windowMs);
      const curKey = `${rule}:${identity}|${windowSec}|${index}`;
      const prevKey = `${rule}:${identity}|${windowSec}|${index - 1}`;
      const current = counts.get(curKey) ?? 0;
      const previous = Math.floor((1 - (nowMs % windowMs) / windowMs) * (counts.get(prevKey) ?? 0));
      const reset = (index + 1) * windowMs;
      if (previous + current >= limit) return { success: false, limit, remaining: 0, reset };
      counts.set(curKey, current + 1);
      return { success: true, limit, remaining: Math.max(0, limit - (previous + current + 1)), reset };
    },
  };
}

type TRatelimitRedis = ConstructorParameters<typeof Ratelimit>[0]['redis'];

/** A limiter over any Redis the library can talk to (Upstash REST, or the ioredis adapter). */
export function createRedisLimiter(redis: TRatelimitRedis, kind: 'redis' | 'upstash', prefix = 'pm:rl'): TLimiter {
  const limiters = new Map<TRateLimitRule, Ratelimit>();
  const forRule = (rule: TRateLimitRule) => {
    let l = limiters.get(rule);
    if (!l) {
      const { limit, windowSec } = RATE_LIMITS[rule];
      l = new Ratelimit({
        redis,
        limiter: Ratelimit.slidingWindow(limit, `${windowSec} s`),
        prefix: `${prefix}:${rule}`,
        analytics: false,
        timeout: 2000,
      });
      limiters.set(rule, l);
    }
    return l;
  };
  return {
    kind,
    limit: async (rule, identity) => {
      const r = await forRule(rule).limit(identity);
      return { success: r.success, limit: r.limit, remaining: Math.max(0, r.remaining), reset: r.reset };
    },
  };
}

/** How long one check may wait for the shared store before this instance counts it in memory. */
export const STORE_TIMEOUT_MS = 400;
/** While the store is out and cannot say when it is back (Upstash), how often one call probes it. */
export const STORE_PROBE_MS = 5_000;
/** How long after start a store that has not answered yet counts as starting, not as an outage. */
const STARTUP_GRACE_MS = 10_000;

export const STORE_DOWN_WARNING = "[rate-limit] Redis unavailable: counting in this instance's memory until it returns";
export const STORE_BACK_NOTICE = '[rate-limit] Redis is back: counting in Redis again';

type TFallbackOptions = {
  /** Whether the store can take a command now, without waiting (ioredis: status 'ready'). */
  connected?: () => boolean;
  fallback?: TLimiter;
  timeoutMs?: number;
  probeMs?: number;
  /**
   * For this long after creation, until the store first answers, a failure counts in memory
   * without a warning: a connection still being made, or a first check slowed by the server's own
   * start, is no outage.
   */
  startupGraceMs?: number;
  clock?: () => number;
  log?: { warn: (msg: string) => void; info: (msg: string) => void };
};

const withTimeout = <T>(p: Promise<T>, ms: number): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });

/**
 * The shared store, with this instance's memory standing in while the store is out. The outage
 * starts with the first failed, timed-out or unconnected check (one warning), and ends with the
 * first check the store answers (one notice). Counts made in memory are not carried over.
 */
export function createFallbackLimiter(store: TLimiter, opts: TFallbackOptions = {}): TLimiter & { outage: () => boolean } {
  const fallback = opts.fallback ?? createMemoryLimiter();
  const timeoutMs = opts.timeoutMs ?? STORE_TIMEOUT_MS;
  const probeMs = opts.probeMs ?? STORE_PROBE_MS;
  const clock = opts.clock ?? Date.now;
  const log = opts.log ?? { warn: (m: string) => console.warn(m), info: (m: string) => console.info(m) };
  const createdAt = clock();
  let answered = false;
  let down = false;
  let lastTry = 0;
  const fail = (reason: string) => {
    if (!answered && clock() - createdAt < (opts.startupGraceMs ?? 0)) return;
    if (!down) log.warn(`${STORE_DOWN_WARNING} (${reason})`);
    down = true;
  };
  return {
    kind: store.kind,
    outage: () => down,
    limit: async (rule, identity) => {
      if (opts.connected && !opts.connected()) {
        fail('not connected');
        return fallback.limit(rule, identity);
      }
      // Without a connection state to go by, an outage is probed now and then, not on every call.
      if (down && !opts.connected && clock() - lastTry < probeMs) return fallback.limit(rule, identity);
      lastTry = clock();
      try {
        const r = await withTimeout(store.limit(rule, identity), timeoutMs);
        if (down) log.info(STORE_BACK_NOTICE);
        down = false;
        answered = true;
        return r;
      } catch (e) {
        fail((e as Error).message);
        return fallback.limit(rule, identity);
      }
    },
  };
}

const KEY = Symbol.for('playmoney.ratelimiter');
type TGlobal = typeof globalThis & { [KEY]?: TLimiter };
const g = globalThis as TGlobal;

const createFromEnv = async (): Promise<TLimiter> => {
  const cfg = env();
  if (cfg.upstashUrl && cfg.upstashToken) {
    const { Redis } = await import('@upstash/redis');
    return createFallbackLimiter(createRedisLimiter(new Redis({ url: cfg.upstashUrl, token: cfg.upstashToken }), 'upstash'), {
      startupGraceMs: STARTUP_GRACE_MS,
    });
  }
  if (cfg.redisUrl) {
    const { default: IORedis } = await import('ioredis');
    // While starting (the first few seconds, before the first connection is ready) a check waits
    // in ioredis's offline queue, bounded by STORE_TIMEOUT_MS; after that only a ready connection
    // is used, so an outage never queues anything. ioredis keeps reconnecting by itself; its
    // errors are reported by the fallback, once per outage.
    const client = new IORedis(cfg.redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2_000 });
    client.on('error', () => {});
    const startedAt = Date.now();
    let everReady = false;
    client.once('ready', () => (everReady = true));
    return createFallbackLimiter(createRedisLimiter(createIoredisAdapter(client) as unknown as TRatelimitRedis, 'redis'), {
      connected: () => client.status === 'ready' || (!everReady && Date.now() - startedAt < STARTUP_GRACE_MS),
      startupGraceMs: STARTUP_GRACE_MS,
    });
  }
  return createMemoryLimiter();
};

let pending: Promise<TLimiter> | undefined;
const getLimiter = async (): Promise<TLimiter> => {
  if (g[KEY]) return g[KEY];
  pending ??= createFromEnv().then((l) => (g[KEY] = l));
  return pending;
};

/** Replaces the process limiter (tests); the penalty box starts empty with it. */
export function setLimiter(l: TLimiter | undefined) {
  g[KEY] = l;
  pending = undefined;
  penalties().clear();
}

/**
 * The penalty box of the bad-input budget: identity → end of its window (Unix ms). Held in process
 * memory on globalThis (Next bundles each route separately) and consulted with no I/O on every
 * request, so a caller in the box costs a timer and nothing else. Per instance: each instance
 * protects itself; the budget's counter itself lives in the shared limiter store.
 */
const PENALTIES = Symbol.for('playmoney.penalties');
type TPenaltyGlobal = typeof globalThis & { [PENALTIES]?: Map<string, number> };
const penalties = () => ((g as TPenaltyGlobal)[PENALTIES] ??= new Map());
const MAX_PENALTIES = 100_000;

/** Codes that mean the request itself was malformed: what the bad-input budget counts. */
const MALFORMED = new Set(['VALIDATION_ERROR', 'INVALID_PARAMETER', 'PAYLOAD_TOO_LARGE', 'URI_TOO_LONG', 'UNSUPPORTED_MEDIA_TYPE']);

/** How long an answer to a caller in the penalty box is held back (a tarpit: the client waits, the server does not). */
export const PENALTY_PAUSE_MS = 1000;

/** When the identity's penalty ends (Unix ms), or undefined when it is not in the box. */
export function penaltyUntil(identity: string): number | undefined {
  const box = penalties();
  const until = box.get(identity);
  if (until === undefined) return undefined;
  if (until > Date.now()) return until;
  box.delete(identity);
  return undefined;
}

/** Counts a refusal against the identity's bad-input budget; past it, the identity goes in the box. Never throws. */
export async function notePenalty(identity: string, code: string): Promise<void> {
  if (!MALFORMED.has(code)) return;
  const r = await checkRateLimit('badInput', identity);
  if (r.success) return;
  const box = penalties();
  if (box.size >= MAX_PENALTIES) {
    const now = Date.now();
    for (const [k, until] of box) if (until <= now) box.delete(k);
    if (box.size >= MAX_PENALTIES) box.delete(box.keys().next().value!);
  }
  box.set(identity, r.reset);
}

let warned = 0;
/** Counts one request; never throws. */
export async function checkRateLimit(rule: TRateLimitRule, identity: string): Promise<TLimitResult> {
  try {
    return await (await getLimiter()).limit(rule, identity);
  } catch (e) {
    if (warned++ % 100 === 0) console.error('[rate-limit] store unavailable, allowing request:', (e as Error).message);
    const { limit, windowSec } = RATE_LIMITS[rule];
    return { success: true, limit, remaining: limit, reset: Date.now() + windowSec * 1000 };
  }
}
