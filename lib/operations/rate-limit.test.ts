/**
 * The rate limiter: the in-memory sliding window, the Redis store through the ioredis adapter
 * (against the local Redis), and the fallback to per-instance memory while the store is out.
 */
import Redis from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createIoredisAdapter, stripShebang } from './redis-adapter';
import { STORE_BACK_NOTICE, STORE_DOWN_WARNING, createFallbackLimiter, createMemoryLimiter, createRedisLimiter, type TLimiter } from './rate-limit';

describe('memory limiter (sliding window)', () => {
  it('allows the limit, then refuses until the window slides', async () => {
    let t = 60_000 * 1000; // start of a window
    const limiter = createMemoryLimiter(() => t);
    for (let i = 0; i < 5; i++) {
      const r = await limiter.limit('report', 'u1');
      expect(r).toMatchObject({ success: true, limit: 5, remaining: 4 - i });
    }
    expect((await limiter.limit('report', 'u1')).success).toBe(false);
    expect((await limiter.limit('report', 'u2')).success).toBe(true);
    // Half a window later the previous window still weighs 50%: 2 of 5 free again.
    t += 60_000 + 30_000;
    expect((await limiter.limit('report', 'u1')).success).toBe(true);
    expect((await limiter.limit('report', 'u1')).success).toBe(true);
    expect((await limiter.limit('report', 'u1')).success).toBe(true);
    expect((await limiter.limit('report', 'u1')).success).toBe(false);
    // Two windows later everything has expired.
    t += 120_000;
    expect((await limiter.limit('report', 'u1')).remaining).toBe(4);
  });

  it('reports the window end as reset', async () => {
    const limiter = createMemoryLimiter(() => 1_000_000);
    const r = await limiter.limit('public', 'ip');
    expect(r.reset).toBe(1_020_000);
  });
});

describe('Redis limiter through the ioredis adapter (local Redis)', () => {
  const client = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
  afterAll(() => client.quit());

  it('strips the #!lua flags line', () => {
    expect(stripShebang('#!lua flags=allow-key-locking\nreturn 1')).toBe('return 1');
    expect(stripShebang('return 1')).toBe('return 1');
  });

  it('counts with @upstash/ratelimit on a real Redis and refuses past the limit', async () => {
    const limiter = createRedisLimiter(createIoredisAdapter(client) as never, 'redis', `pm:test:${Date.now()}:${Math.random()}`);
    const results = [];
    for (let i = 0; i < 6; i++) results.push(await limiter.limit('report', 'user-1'));
    expect(results.slice(0, 5).every((r) => r.success)).toBe(true);
    expect(results.map((r) => r.remaining).slice(0, 5)).toEqual([4, 3, 2, 1, 0]);
    expect(results[5]!.success).toBe(false);
    expect(results[5]!.limit).toBe(5);
    expect((await limiter.limit('report', 'user-2')).success).toBe(true);
  });

  it('shares counters between two limiter instances (as between two servers)', async () => {
    const prefix = `pm:test:shared:${Date.now()}:${Math.random()}`;
    const a = createRedisLimiter(createIoredisAdapter(client) as never, 'redis', prefix);
    const b = createRedisLimiter(createIoredisAdapter(client) as never, 'redis', prefix);
    for (let i = 0; i < 3; i++) await a.limit('report', 'same');
    for (let i = 0; i < 2; i++) expect((await b.limit('report', 'same')).success).toBe(true);
    expect((await a.limit('report', 'same')).success).toBe(false);
  });
});

describe('fallback to per-instance memory while the store is out', () => {
  /** A store that answers, fails, or never answers, as the test says; counts the calls it got. */
  const fakeStore = () => {
    const state = { mode: 'up' as 'up' | 'fail' | 'hang', calls: 0 };
    const store: TLimiter = {
      kind: 'redis',
      limit: async () => {
        state.calls++;
        if (state.mode === 'fail') throw new Error('connection is closed');
        if (state.mode === 'hang') return new Promise(() => {});
        return { success: true, limit: 99, remaining: 98, reset: 0 };
      },
    };
    return { state, store };
  };
  const logger = () => {
    const lines: string[] = [];
    return { lines, log: { warn: (m: string) => lines.push(`warn ${m}`), info: (m: string) => lines.push(`info ${m}`) } };
  };

  it('counts in memory (limits still apply) when the store fails, warns once, and returns to the store', async () => {
    const { state, store } = fakeStore();
    const { lines, log } = logger();
    const limiter = createFallbackLimiter(store, { log, probeMs: 0 });
    expect((await limiter.limit('report', 'u1')).limit).toBe(99); // from the store
    state.mode = 'fail';
    const local = [];
    for (let i = 0; i < 6; i++) local.push(await limiter.limit('report', 'u1'));
    // The memory limiter's rule: 5 reports a minute, the 6th refused.
    expect(local.map((r) => r.success)).toEqual([true, true, true, true, true, false]);
    expect(local[0]!.limit).toBe(5);
    expect(limiter.outage()).toBe(true);
    expect(lines).toEqual([`warn ${STORE_DOWN_WARNING} (connection is closed)`]);
    state.mode = 'up';
    expect((await limiter.limit('report', 'u1')).limit).toBe(99);
    expect(limiter.outage()).toBe(false);
    expect(lines).toEqual([`warn ${STORE_DOWN_WARNING} (connection is closed)`, `info ${STORE_BACK_NOTICE}`]);
  });

  it('does not wait on a store that does not answer', async () => {
    const { state, store } = fakeStore();
    const { lines, log } = logger();
    state.mode = 'hang';
    const limiter = createFallbackLimiter(store, { log, timeoutMs: 50 });
    const r = await limiter.limit('report', 'u1');
    // The store was asked once and never answers: the limiter answered from memory on the
    // timeout it was given (50 ms, named in the warning), not on the store.
    expect(state.calls).toBe(1);
    expect(r).toMatchObject({ success: true, limit: 5 });
    expect(lines[0]).toContain('no answer within 50 ms');
  });

  it('goes by the connection state without calling a disconnected store', async () => {
    const { state, store } = fakeStore();
    const { lines, log } = logger();
    let connected = false;
    const limiter = createFallbackLimiter(store, { log, connected: () => connected });
    await limiter.limit('report', 'u1');
    await limiter.limit('report', 'u1');
    expect(state.calls).toBe(0);
    expect(lines).toEqual([`warn ${STORE_DOWN_WARNING} (not connected)`]);
    connected = true;
    expect((await limiter.limit('report', 'u1')).limit).toBe(99);
    expect(state.calls).toBe(1);
    expect(lines.at(-1)).toBe(`info ${STORE_BACK_NOTICE}`);
  });

  it('is quiet while starting: failures before the first answer, within the grace, count in memory without a warning', async () => {
    const { state, store } = fakeStore();
    const { lines, log } = logger();
    let t = 0;
    const limiter = createFallbackLimiter(store, { log, startupGraceMs: 1000, clock: () => t });
    state.mode = 'fail';
    expect((await limiter.limit('report', 'u1')).limit).toBe(5);
    expect(lines).toEqual([]);
    t = 1500; // past the grace and never answered: an outage
    await limiter.limit('report', 'u1');
    expect(lines).toEqual([`warn ${STORE_DOWN_WARNING} (connection is closed)`]);
  });

  it('after a first answer, a failure within the grace is an outage', async () => {
    const { state, store } = fakeStore();
    const { lines, log } = logger();
    const limiter = createFallbackLimiter(store, { log, startupGraceMs: 60_000 });
    await limiter.limit('report', 'u1');
    state.mode = 'fail';
    await limiter.limit('report', 'u1');
    expect(lines).toEqual([`warn ${STORE_DOWN_WARNING} (connection is closed)`]);
  });

  it('without a connection state, probes an out store only now and then', async () => {
    const { state, store } = fakeStore();
    const { log } = logger();
    let t = 0;
    const limiter = createFallbackLimiter(store, { log, probeMs: 1000, clock: () => t });
    state.mode = 'fail';
    await limiter.limit('report', 'u1');
    await limiter.limit('report', 'u1');
    await limiter.limit('report', 'u1');
    expect(state.calls).toBe(1);
    state.mode = 'up';
    t = 1500;
    expect((await limiter.limit('report', 'u1')).limit).toBe(99);
    expect(state.calls).toBe(2);
  });
});
