/**
 * Rate limiting with a sliding window (@upstash/ratelimit's algorithm) over one of three stores,
 * picked by the environment: Upstash Redis (UPSTASH_REDIS_REST_URL), a self-hosted Redis
 * (REDIS_URL, through the ioredis adapter) or process memory. Counters are per rule and per
 * identity (user id, or client address for anonymous calls). If the store fails the request is
 * let through and the failure logged: an outage of the counter store must not take the API down.
 */
import { Ratelimit } from '@upstash/ratelimit';
import { env } from '@/lib/env';
import { RATE_LIMITS, type TRateLimitRule } from './rate-limits';
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
export const createMemoryLimiter = (clock: () => number = Date.now): TLimiter & { reset: () => void } => {
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
};

type TRatelimitRedis = ConstructorParameters<typeof Ratelimit>[0]['redis'];

/** A limiter over any Redis the library can talk to (Upstash REST, or the ioredis adapter). */
export const createRedisLimiter = (redis: TRatelimitRedis, kind: 'redis' | 'upstash', prefix = 'pm:rl'): TLimiter => {
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
};

const KEY = Symbol.for('playmoney.ratelimiter');
type TGlobal = typeof globalThis & { [KEY]?: TLimiter };
const g = globalThis as TGlobal;

const createFromEnv = async (): Promise<TLimiter> => {
  const cfg = env();
  if (cfg.upstashUrl && cfg.upstashToken) {
    const { Redis } = await import('@upstash/redis');
    return createRedisLimiter(new Redis({ url: cfg.upstashUrl, token: cfg.upstashToken }), 'upstash');
  }
  if (cfg.redisUrl) {
    const { default: IORedis } = await import('ioredis');
    const client = new IORedis(cfg.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: true, lazyConnect: false });
    client.on('error', (e) => console.error('[rate-limit] redis error:', e.message));
    return createRedisLimiter(createIoredisAdapter(client) as unknown as TRatelimitRedis, 'redis');
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
export const setLimiter = (l: TLimiter | undefined) => {
  g[KEY] = l;
  pending = undefined;
  penalties().clear();
};

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
export const penaltyUntil = (identity: string): number | undefined => {
  const box = penalties();
  const until = box.get(identity);
  if (until === undefined) return undefined;
  if (until > Date.now()) return until;
  box.delete(identity);
  return undefined;
};

/** Counts a refusal against the identity's bad-input budget; past it, the identity goes in the box. Never throws. */
export const notePenalty = async (identity: string, code: string): Promise<void> => {
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
};

let warned = 0;
/** Counts one request; never throws. */
export const checkRateLimit = async (rule: TRateLimitRule, identity: string): Promise<TLimitResult> => {
  try {
    return await (await getLimiter()).limit(rule, identity);
  } catch (e) {
    if (warned++ % 100 === 0) console.error('[rate-limit] store unavailable, allowing request:', (e as Error).message);
    const { limit, windowSec } = RATE_LIMITS[rule];
    return { success: true, limit, remaining: limit, reset: Date.now() + windowSec * 1000 };
  }
};
