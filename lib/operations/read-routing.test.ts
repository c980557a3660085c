/**
 * The read-routing decision (./read-routing.ts): which operations may read a replica, for whom,
 * and that without replicas (PGlite, no DATABASE_URL_REPLICA) nothing is ever routed or marked.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { replicasConfigured } from '@/db/client';
import { endpoints } from '@/lib/contracts';
import { resetEnvCache } from '@/lib/env';
import { chooseReads, createMemoryMarkers, isWriteOperation, noteWrite, readsTarget, resetWriteMarkers, setReadYourWritesMs } from './read-routing';

const READ = { method: 'GET', reads: 'replica' as const };
const saved = { url: process.env.DATABASE_URL, replica: process.env.DATABASE_URL_REPLICA };
const setEnv = (url: string | undefined, replica: string | undefined) => {
  if (url === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = url;
  if (replica === undefined) delete process.env.DATABASE_URL_REPLICA;
  else process.env.DATABASE_URL_REPLICA = replica;
  resetEnvCache();
};

afterEach(() => {
  setEnv(saved.url, saved.replica);
  setReadYourWritesMs(undefined);
  resetWriteMarkers();
});

describe('chooseReads', () => {
  it('a replica only for a declared read, with replicas, by a guest or a user without a fresh write', () => {
    expect(chooseReads({ declared: true, replicas: true, subject: null, freshWrite: false })).toBe('replica');
    expect(chooseReads({ declared: true, replicas: true, subject: 'u1', freshWrite: false })).toBe('replica');
    expect(chooseReads({ declared: true, replicas: true, subject: 'u1', freshWrite: true })).toBe('primary');
    expect(chooseReads({ declared: false, replicas: true, subject: null, freshWrite: false })).toBe('primary');
    expect(chooseReads({ declared: true, replicas: false, subject: null, freshWrite: false })).toBe('primary');
  });

  it('a write is any method but GET, and a GET that declares it writes', () => {
    expect(isWriteOperation({ method: 'GET' })).toBe(false);
    expect(isWriteOperation({ method: 'GET', writesOnGet: true })).toBe(true);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) expect(isWriteOperation({ method })).toBe(true);
  });
});

describe('write markers in memory', () => {
  it('last their lifetime, per user', () => {
    let t = 1_000;
    const m = createMemoryMarkers(() => t);
    m.set('u1', 3_000);
    expect(m.fresh('u1')).toBe(true);
    expect(m.fresh('u2')).toBe(false);
    t += 2_999;
    expect(m.fresh('u1')).toBe(true);
    t += 1;
    expect(m.fresh('u1')).toBe(false);
  });
});

describe('readsTarget', () => {
  it('without replicas (PGlite or none configured): always the primary, and writes mark nothing', async () => {
    setEnv(undefined, 'postgres://replica.example/db');
    expect(replicasConfigured()).toBe(false);
    expect(await readsTarget(READ, null)).toBe('primary');
    setEnv('postgres://primary.example/db', undefined);
    expect(replicasConfigured()).toBe(false);
    expect(await readsTarget(READ, null)).toBe('primary');
    await noteWrite('u1');
    setEnv('postgres://primary.example/db', 'postgres://replica.example/db');
    expect(await readsTarget(READ, 'u1')).toBe('replica');
  });

  it('with replicas: guests read the replica; a user right after a write reads the primary until the marker ends', async () => {
    setEnv('postgres://primary.example/db', 'postgres://replica.example/db');
    expect(replicasConfigured()).toBe(true);
    expect(await readsTarget(READ, null)).toBe('replica');
    expect(await readsTarget({ method: 'GET' }, null)).toBe('primary');
    expect(await readsTarget(READ, 'u1')).toBe('replica');
    setReadYourWritesMs(150);
    await noteWrite('u1');
    expect(await readsTarget(READ, 'u1')).toBe('primary');
    expect(await readsTarget(READ, 'u2')).toBe('replica');
    expect(await readsTarget(READ, null)).toBe('replica');
    await new Promise((r) => setTimeout(r, 200));
    expect(await readsTarget(READ, 'u1')).toBe('replica');
  });
});

describe("the operations declared reads: 'replica'", () => {
  const onReplica = endpoints.filter((e) => e.reads === 'replica');

  it('are GETs that change nothing', () => {
    expect(onReplica.length).toBeGreaterThan(40);
    for (const e of onReplica) {
      expect(e.method, e.id).toBe('GET');
      expect(e.writesOnGet, e.id).toBeUndefined();
      expect(e.auth, e.id).not.toBe('cron');
    }
  });

  it('include the feeds, lists, market data, profiles and leaderboards', () => {
    const ids = new Set(onReplica.map((e) => e.id));
    for (const id of ['posts.list', 'predictions.list', 'predictions.get', 'predictions.history', 'perps.candles', 'orders.book', 'trades.list', 'standings.leaderboard', 'users.profile', 'registry.list', 'pools.list']) {
      expect(ids, id).toContain(id);
    }
  });

  it("leave out what a caller must see current: their account, balances, positions, notifications, chats, admin, auth, game control, SSE", () => {
    const kept = /^\/api\/(users\/me\b|notifications|chats|admin|auth|game\/control|sse|moderation|a2a|mcp)|\/(balance|positions|deposits|api-keys|referral|points)\b/;
    for (const e of onReplica) expect(kept.test(e.path), `${e.id} ${e.path}`).toBe(false);
    for (const id of ['users.me', 'users.balance', 'perps.myPositions', 'markets.positions', 'notifications.list', 'chats.list', 'admin.trades', 'game.control.get', 'sse.events', 'system.health']) {
      expect(endpoints.find((e) => e.id === id)?.reads, id).toBeUndefined();
    }
  });
});
