/**
 * The store over a real Redis (ioredis, as REDIS_URL configures it; TEST_REDIS_URL or the local one): two instances' flushes of the same minute add up, and the last hour reads them back.
 * Keys under a prefix of the run's own; they expire like the real ones.
 */
import { describe, expect, it } from 'vitest';
import { createHistogram, percentile, record } from './histogram';
import type { TSeries } from './groups';
import { storeFromEnv } from './store';

// The machine's Redis, which CI and development run (as lib/operations/rate-limit.test.ts uses it).
const url = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('the metrics store on Redis', () => {
  it('HINCRBYs each flush into the minute hash and reads every instance back', async () => {
    const prefix = `pm:lat:test:${process.pid}:${Date.now()}:`;
    const a = storeFromEnv({ redisUrl: url }, prefix)!;
    const b = storeFromEnv({ redisUrl: url }, prefix)!;
    expect(a.kind).toBe('redis');
    const now = Date.now();
    const minute = Math.floor(now / 60_000);
    const h = createHistogram();
    for (let i = 0; i < 10; i++) record(h, 20);
    const s = createHistogram();
    record(s, 300, 4);
    await a.add(minute, new Map<TSeries, typeof h>([['trade', h], ['sse', s]]));
    await b.add(minute, new Map<TSeries, typeof h>([['trade', h]]));
    await b.add(minute - 5, new Map<TSeries, typeof h>([['trade', h]]));
    const hour = await a.readLastHour(now);
    expect(hour.get('trade')!.count).toBe(30);
    expect(hour.get('trade')!.sumMicros).toBe(30 * 20_000);
    expect(percentile(hour.get('trade')!, 0.5)).toBeCloseTo(20, -1);
    expect(hour.get('sse')!.count).toBe(4);
    expect(hour.get('read')).toBeUndefined();
  });
});
