import Redis from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createIoredisAdapter, stripShebang } from './redis-adapter';
import { createMemoryLimiter, createRedisLimiter } from './rate-limit';

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
