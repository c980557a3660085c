/**
 * The database handle on the server it is given: every pool connection runs under the 8 s
 * statement bound, and NOTIFY reaches listenToNotifications. Run through a transaction-mode
 * pooler (CI's PgBouncer step, DATABASE_URL_UNPOOLED set) this shows the pooler mode is in
 * effect: the bound arrives as the role's default instead of a startup parameter, and LISTEN
 * works because it bypasses the pooler. On PGlite only the notification part applies.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { connectionPlan, dbKind, executePrepared, getDb, listenToNotifications, rowsOf } from './client';
import { env } from '@/lib/env';

describe('database handle', () => {
  it('every pool connection has the 8 s statement bound and JIT off (PostgreSQL)', async () => {
    const db = await getDb();
    if (dbKind() !== 'postgres') return;
    // Several connections at once: each one must have them, not only the first.
    const settings = await Promise.all(
      Array.from({ length: 6 }, () =>
        db.transaction(async (tx) => {
          const rows = rowsOf<{ t: string; jit: string }>(
            await tx.execute(sql`select current_setting('statement_timeout') as t, current_setting('jit') as jit, pg_sleep(0.05)`),
          );
          return `${rows[0]!.t} jit=${rows[0]!.jit}`;
        }),
      ),
    );
    expect(new Set(settings)).toEqual(new Set(['8s jit=off']));
  });

  it('behind a declared pooler, the bound is the role default in this database and statements are not prepared', async () => {
    const plan = connectionPlan(env());
    if (!plan?.pooler) return;
    const db = await getDb();
    const rows = rowsOf<{ setconfig: string[] }>(
      await db.execute(sql`
        select setconfig from pg_db_role_setting
        where setdatabase = (select oid from pg_database where datname = current_database())
          and setrole = (select oid from pg_roles where rolname = current_user)`),
    );
    expect(rows.flatMap((r) => r.setconfig)).toContain('statement_timeout=8000ms');
    expect(rows.flatMap((r) => r.setconfig)).toContain('jit=off');
    // The same statement many times: a named prepared statement would be unknown on the next
    // server connection the pooler hands out ("prepared statement does not exist").
    for (let i = 0; i < 20; i++) {
      const [r] = rowsOf<{ n: number }>(await executePrepared(sql`select ${i}::int as n`));
      expect(r!.n).toBe(i);
    }
  });

  it('a NOTIFY committed on the pool reaches listenToNotifications', async () => {
    const db = await getDb();
    let received = 0;
    let listening!: () => void;
    const started = new Promise<void>((r) => (listening = r));
    const stop = await listenToNotifications('h2_client_probe', () => received++, () => listening());
    try {
      await started;
      await db.execute(sql`select pg_notify('h2_client_probe', 'x')`);
      const deadline = Date.now() + 5_000;
      while (received === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(received).toBeGreaterThan(0);
    } finally {
      await stop();
    }
  });
});
