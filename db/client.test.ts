/**
 * The connection plan db/client.ts derives from the environment: with DATABASE_URL_UNPOOLED (a
 * transaction-mode pooler in front of DATABASE_URL) nothing that needs a session may go through
 * the pool, and the statement bound must not be a startup parameter the pooler would refuse.
 */
import { describe, expect, it } from 'vitest';
import { CONNECT_TIMEOUT_S, STATEMENT_TIMEOUT_MS, connectionPlan } from './client';

const POOLED = 'postgres://app@pooler.example:6432/play';
const DIRECT = 'postgres://app@db.example:5432/play';

describe('connectionPlan', () => {
  it('is undefined without DATABASE_URL (embedded PGlite), even with DATABASE_URL_UNPOOLED', () => {
    expect(connectionPlan({ dbPoolMax: 10 })).toBeUndefined();
    expect(connectionPlan({ databaseUrlUnpooled: DIRECT, dbPoolMax: 10 })).toBeUndefined();
  });

  it('direct: prepared statements, the bound as a startup parameter, LISTEN and migrations on the one URL', () => {
    const plan = connectionPlan({ databaseUrl: DIRECT, dbPoolMax: 7 })!;
    expect(plan.pooler).toBe(false);
    expect(plan.pool).toEqual({
      url: DIRECT,
      max: 7,
      idle_timeout: 30,
      connect_timeout: CONNECT_TIMEOUT_S,
      prepare: true,
      connection: { statement_timeout: STATEMENT_TIMEOUT_MS, jit: 'off' },
    });
    expect(plan.listenUrl).toBe(DIRECT);
    expect(plan.migrateUrl).toBe(DIRECT);
    expect(plan.statementTimeout).toBe('startup-parameter');
  });

  it('behind a pooler: no prepared statements, no startup parameters, LISTEN and migrations direct', () => {
    const plan = connectionPlan({ databaseUrl: POOLED, databaseUrlUnpooled: DIRECT, dbPoolMax: 10 })!;
    expect(plan.pooler).toBe(true);
    expect(plan.pool.url).toBe(POOLED);
    expect(plan.pool.prepare).toBe(false);
    expect(plan.pool.connection).toEqual({});
    expect(plan.pool.connect_timeout).toBe(CONNECT_TIMEOUT_S);
    expect(plan.listenUrl).toBe(DIRECT);
    expect(plan.migrateUrl).toBe(DIRECT);
    expect(plan.statementTimeout).toBe('role-default');
  });

  it('an unpooled URL equal to DATABASE_URL declares no pooler', () => {
    expect(connectionPlan({ databaseUrl: DIRECT, databaseUrlUnpooled: DIRECT, dbPoolMax: 10 })!.pooler).toBe(false);
  });

  it('no DATABASE_URL_REPLICA: no replica pools', () => {
    expect(connectionPlan({ databaseUrl: DIRECT, dbPoolMax: 10 })!.replicas).toEqual([]);
    expect(connectionPlan({ databaseUrl: DIRECT, databaseUrlReplicas: [], dbPoolMax: 10 })!.replicas).toEqual([]);
  });

  it('read replicas: one pool each, with the primary pool\'s options; LISTEN and migrations stay on the primary', () => {
    const R1 = 'postgres://app@replica-1.example:5432/play';
    const R2 = 'postgres://app@replica-2.example:5432/play';
    const plan = connectionPlan({ databaseUrl: DIRECT, databaseUrlReplicas: [R1, R2], dbPoolMax: 7 })!;
    expect(plan.replicas).toEqual([
      { ...plan.pool, url: R1 },
      { ...plan.pool, url: R2 },
    ]);
    expect(plan.replicas[0]!.prepare).toBe(true);
    expect(plan.replicas[0]!.connection).toEqual({ statement_timeout: STATEMENT_TIMEOUT_MS, jit: 'off' });
    expect(plan.pool.url).toBe(DIRECT);
    expect(plan.listenUrl).toBe(DIRECT);
    expect(plan.migrateUrl).toBe(DIRECT);
  });

  it('read replicas behind a pooler: prepared statements and startup parameters off there too', () => {
    const R1 = 'postgres://app@replica-pooler.example:6432/play';
    const plan = connectionPlan({ databaseUrl: POOLED, databaseUrlUnpooled: DIRECT, databaseUrlReplicas: [R1], dbPoolMax: 10 })!;
    expect(plan.replicas).toEqual([{ ...plan.pool, url: R1 }]);
    expect(plan.replicas[0]!.prepare).toBe(false);
    expect(plan.replicas[0]!.connection).toEqual({});
    expect(plan.listenUrl).toBe(DIRECT);
  });

  it('replicas without DATABASE_URL (PGlite): no plan at all', () => {
    expect(connectionPlan({ databaseUrlReplicas: ['postgres://r/db'], dbPoolMax: 10 })).toBeUndefined();
  });

  it('a request never waits for a connection as long as its own deadline', () => {
    expect(CONNECT_TIMEOUT_S * 1000).toBeLessThan(10_000);
  });
});
