/**
 * Which database an operation's reads go to: the primary, or a read replica (DATABASE_URL_REPLICA,
 * db/client.ts). A replica is a second or so behind, so only operations that declare
 * `reads: 'replica'` (lib/contracts/endpoint.ts: public lists, feeds, market data, profiles,
 * leaderboards) read there, and only for a caller who has not just written: after any write a
 * principal makes (any operation but a GET, or a GET that writes), a marker keeps that caller's reads
 * on the primary for READ_YOUR_WRITES_MS, so a player sees their own post, trade or follow at once.
 * A caller is named by their token's subject (one user each), which every signed-in call knows
 * before any row is read, a call of a `sameForEveryCaller` operation included.
 * The marker lives in this process's memory and, when Redis is configured (UPSTASH_REDIS_REST_URL
 * or REDIS_URL, as for the rate limits), in Redis too, so another instance honours it. Anonymous
 * callers have written nothing: they always may read a replica.
 * Without replicas (PGlite, or no DATABASE_URL_REPLICA) none of this costs anything: every
 * decision is 'primary' before any marker is looked at, and no marker is written.
 */
import 'server-only';
import { onPrimary, replicasConfigured, withReplicaReads } from '@/db/client';
import { env } from '@/lib/env';
import { isDatabaseUnavailable } from '@/lib/errors/database-unavailable';

/** How long after a write the writer's reads stay on the primary. */
export const READ_YOUR_WRITES_MS = 3_000;
/** How long a marker look-up or write may wait for Redis; past it, the reads stay on the primary. */
export const MARKER_STORE_TIMEOUT_MS = 250;

export type TReadsTarget = 'primary' | 'replica';

/** What the decision needs of an operation (a REST endpoint is one). */
export type TRoutedOperation = { method: string; reads?: 'replica'; writesOnGet?: true };

/** An operation that may change state: anything but a GET, and a GET that says it writes. */
export function isWriteOperation(op: TRoutedOperation): boolean {
  return op.method !== 'GET' || op.writesOnGet === true;
}

/**
 * The decision itself (no I/O): a replica only for a declared read, with replicas configured, by a
 * guest or by a user without a fresh write marker.
 */
export function chooseReads(input: { declared: boolean; replicas: boolean; subject: string | null; freshWrite: boolean }): TReadsTarget {
  if (!input.declared || !input.replicas) return 'primary';
  if (input.subject === null) return 'replica';
  return input.freshWrite ? 'primary' : 'replica';
}

/** This process's markers: subject → when the marker ends (ms). */
export function createMemoryMarkers(clock: () => number = Date.now) {
  const until = new Map<string, number>();
  return {
    set(subject: string, ms: number) {
      const now = clock();
      if (until.size > 10_000) for (const [k, t] of until) if (t <= now) until.delete(k);
      until.set(subject, now + ms);
    },
    fresh(subject: string) {
      const t = until.get(subject);
      if (t === undefined) return false;
      if (t > clock()) return true;
      until.delete(subject);
      return false;
    },
    clear: () => until.clear(),
  };
}

type TMarkerStore = {
  set: (key: string, ms: number) => Promise<unknown>;
  /** true/false, or undefined when the store cannot say now (not connected). */
  has: (key: string) => Promise<boolean | undefined>;
};

type TState = {
  memory: ReturnType<typeof createMemoryMarkers>;
  store?: Promise<TMarkerStore | undefined>;
  ms: number;
};
const KEY = Symbol.for('playmoney.readYourWrites');
type TGlobal = typeof globalThis & { [KEY]?: TState };
const state = (): TState => ((globalThis as TGlobal)[KEY] ??= { memory: createMemoryMarkers(), ms: READ_YOUR_WRITES_MS });

const markerKey = (subject: string) => `pm:ryw:${subject}`;

const storeFromEnv = async (): Promise<TMarkerStore | undefined> => {
  const cfg = env();
  if (cfg.upstashUrl && cfg.upstashToken) {
    const { Redis } = await import('@upstash/redis');
    const redis = new Redis({ url: cfg.upstashUrl, token: cfg.upstashToken });
    return {
      set: (key, ms) => redis.set(key, '1', { px: ms }),
      has: async (key) => (await redis.exists(key)) > 0,
    };
  }
  if (cfg.redisUrl) {
    const { default: IORedis } = await import('ioredis');
    const client = new IORedis(cfg.redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2_000 });
    client.on('error', () => {});
    // Only a ready connection is used: an outage queues nothing (the reads then stay on the primary).
    const ready = () => client.status === 'ready';
    return {
      set: async (key, ms) => (ready() ? client.set(key, '1', 'PX', ms) : undefined),
      has: async (key) => (ready() ? (await client.exists(key)) > 0 : undefined),
    };
  }
  return undefined;
};

const markerStore = () => (state().store ??= storeFromEnv().catch(() => undefined));

const bounded = <T>(p: Promise<T>): Promise<T | undefined> =>
  new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), MARKER_STORE_TIMEOUT_MS);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      () => {
        clearTimeout(timer);
        resolve(undefined);
      },
    );
  });

/** Whether the caller wrote within READ_YOUR_WRITES_MS (here, or on another instance through Redis). */
async function hasFreshWrite(subject: string): Promise<boolean> {
  const s = state();
  if (s.memory.fresh(subject)) return true;
  const store = await markerStore();
  if (!store) return false;
  // A store that cannot answer in time: keep the reads on the primary (correct, only slower).
  return (await bounded(store.has(markerKey(subject)))) ?? true;
}

/** Where the reads of this call of `op` by `subject` (null: a guest) go. */
export async function readsTarget(op: TRoutedOperation, subject: string | null): Promise<TReadsTarget> {
  if (op.reads !== 'replica' || !replicasConfigured()) return 'primary';
  if (subject === null) return 'replica';
  return chooseReads({ declared: true, replicas: true, subject, freshWrite: await hasFreshWrite(subject) });
}

/** Notes that `subject` has just written (a successful write operation): their reads stay on the primary a while. */
export async function noteWrite(subject: string): Promise<void> {
  if (!replicasConfigured()) return;
  const s = state();
  s.memory.set(subject, s.ms);
  const store = await markerStore();
  if (store) await bounded(store.set(markerKey(subject), s.ms));
}

/**
 * Runs fn with its reads where `target` says. A replica that is out (unreachable, restarting)
 * does not fail the read: it runs again on the primary.
 */
export async function runReads<T>(target: TReadsTarget, fn: () => Promise<T>, label = 'read'): Promise<T> {
  if (target === 'primary') return fn();
  try {
    return await withReplicaReads(fn);
  } catch (e) {
    if (!isDatabaseUnavailable(e)) throw e;
    console.warn(`[db] ${label}: read replica unavailable, reading the primary`);
    return onPrimary(fn);
  }
}

/** Tests: the marker's lifetime (undefined: the default) and a clean slate. */
export function setReadYourWritesMs(ms: number | undefined) {
  state().ms = ms ?? READ_YOUR_WRITES_MS;
}
export function resetWriteMarkers() {
  state().memory.clear();
}
