/**
 * The database handle. postgres.js when DATABASE_URL is set, otherwise embedded PGlite persisted in
 * DATA_DIR (`memory://` keeps it in memory, as the tests do). Migrations run once per process
 * before the first query is handed out.
 *
 * Why globalThis: Next.js bundles instrumentation and each route separately, so a module-level
 * variable would exist once per bundle and open the PGlite folder twice (and lose writes).
 * Why a lock file: two processes must never open one PGlite folder; the second one fails loudly.
 * PGlite is a single connection; its transaction() holds a mutex so transactions never
 * interleave, and queries on the outer handle wait for it. Inside a transaction use only `tx`:
 * the outer handle would wait forever on PGlite and escape the transaction on PostgreSQL.
 */
import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { env } from '@/lib/env';
import { assertWithinDeadline, trackWrite } from '@/lib/clock/deadline';
import * as schema from './schema';

/**
 * One SQL statement on PostgreSQL (set on the pool's connections). Below a request's deadline
 * (10 s, lib/operations/bounds.ts), so a statement started in time ends or fails before the
 * request's answer is due.
 */
export const STATEMENT_TIMEOUT_MS = 8_000;

export type TSchema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, TSchema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Either the database or a transaction on it: read helpers accept both. */
export type DbOrTx = Db | Tx;
export type TDbKind = 'pglite' | 'postgres';

/** Calls onNotify for each NOTIFY on `channel` (after commit); onListen whenever listening (re)starts. */
type TListen = (channel: string, onNotify: () => void, onListen?: () => void) => Promise<() => Promise<void>>;

type TPrepared = (statement: SQL) => Promise<unknown>;

type THandle = {
  db: Db;
  kind: TDbKind;
  ready: Promise<void>;
  close: () => Promise<void>;
  listen: TListen;
  /** Runs a raw statement as a prepared statement where the driver has them (postgres.js). */
  prepared?: TPrepared;
};

const KEY = Symbol.for('playmoney.db');
type TGlobal = typeof globalThis & { [KEY]?: THandle };
const g = globalThis as TGlobal;

const migrationsFolder = () => path.join(process.cwd(), 'db', 'migrations');

const lockPglite = (dir: string) => {
  fs.mkdirSync(dir, { recursive: true });
  const lockFile = path.join(dir, 'playmoney.lock');
  try {
    const pid = Number(fs.readFileSync(lockFile, 'utf8'));
    if (pid && pid !== process.pid) {
      let alive = false;
      try {
        process.kill(pid, 0);
        alive = true;
      } catch {
        alive = false;
      }
      if (alive) {
        throw new Error(
          `The embedded database in ${dir} is open in process ${pid}. Stop it first, or set DATA_DIR or DATABASE_URL.`,
        );
      }
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  fs.writeFileSync(lockFile, String(process.pid));
  const release = () => {
    try {
      if (fs.readFileSync(lockFile, 'utf8') === String(process.pid)) fs.unlinkSync(lockFile);
    } catch {
      /* already gone */
    }
  };
  process.once('exit', release);
  return release;
};

const openPglite = async (): Promise<Omit<THandle, 'ready'> & { migrate: () => Promise<void> }> => {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const dataDir = env().dataDir;
  let client: InstanceType<typeof PGlite>;
  let release = () => {};
  if (dataDir.startsWith('memory://')) {
    client = new PGlite();
  } else {
    const dir = path.resolve(dataDir, 'pglite');
    release = lockPglite(dir);
    client = new PGlite(dir);
  }
  const db = drizzle(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    // The embedded database is this process's one connection: it delivers its own NOTIFYs.
    listen: async (channel, onNotify, onListen) => {
      const off = await client.listen(channel, () => onNotify());
      onListen?.();
      return off;
    },
    migrate: () => migrate(db as never, { migrationsFolder: migrationsFolder() }),
    close: async () => {
      await client.close();
      release();
    },
  };
};

const openPostgres = async (url: string): Promise<Omit<THandle, 'ready'> & { migrate: () => Promise<void> }> => {
  const { default: postgres } = await import('postgres');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const { migrate } = await import('drizzle-orm/postgres-js/migrator');
  const { PgDialect } = await import('drizzle-orm/pg-core');
  // statement_timeout: no statement of a request outlives its deadline (lib/clock/deadline.ts).
  // The tick's statements run on the same pool and stay far below it (funding 100,000
  // positions: about 2 s).
  const client = postgres(url, {
    max: env().dbPoolMax,
    onnotice: () => {},
    idle_timeout: 30,
    connection: { statement_timeout: STATEMENT_TIMEOUT_MS },
  });
  const db = drizzle(client, { schema }) as unknown as Db;
  const dialect = new PgDialect();
  return {
    db,
    kind: 'postgres',
    // The same client drizzle wraps (its type parsers included), so rows match db.execute's.
    prepared: (statement) => {
      const q = dialect.sqlToQuery(statement);
      return client.unsafe(q.sql, q.params as never[], { prepare: true });
    },
    // postgres.js listens on one dedicated connection (outside the pool) and re-LISTENs after a
    // reconnect, calling onListen again: notifications sent meanwhile are lost, so the caller
    // re-reads what it may have missed.
    listen: async (channel, onNotify, onListen) => {
      const sub = await client.listen(channel, () => onNotify(), () => onListen?.());
      return () => sub.unlisten();
    },
    migrate: async () => {
      // Several processes may start at once (instances, test workers): one migrates at a time.
      const lockClient = postgres(url, { max: 1, onnotice: () => {} });
      try {
        await lockClient`select pg_advisory_lock(7412001)`;
        await migrate(db as never, { migrationsFolder: migrationsFolder() });
        await lockClient`select pg_advisory_unlock(7412001)`;
      } finally {
        await lockClient.end();
      }
    },
    close: () => client.end(),
  };
};

const open = (): THandle => {
  const url = env().databaseUrl;
  let inner: { close: () => Promise<void>; listen: TListen; prepared?: TPrepared } | undefined;
  const handle: THandle = {
    db: undefined as unknown as Db,
    kind: url ? 'postgres' : 'pglite',
    ready: Promise.resolve(),
    close: async () => {
      await handle.ready.catch(() => {});
      await inner?.close();
    },
    listen: async (...args) => {
      await handle.ready;
      return inner!.listen(...args);
    },
  };
  handle.ready = (async () => {
    const opened = url ? await openPostgres(url) : await openPglite();
    inner = opened;
    handle.db = opened.db;
    handle.prepared = opened.prepared;
    await opened.migrate();
  })();
  // Keep an unhandled rejection from crashing the process; callers await `ready` and see it.
  handle.ready.catch(() => {});
  return handle;
};

const handle = (): THandle => (g[KEY] ??= open());

/**
 * Runs one raw statement outside any transaction, on PostgreSQL as a prepared statement; returns
 * what db.execute would. For the hot one-statement writes (buy, perp open and close, the sweep
 * after a trade): long CTE chains whose parse and plan cost PostgreSQL more than running them,
 * and whose text made every call a large socket write. Prepared once per connection (postgres.js
 * keys statements by their text), a call sends only Bind and Execute, and the small messages of
 * concurrent requests share socket writes. Measured on the buy benchmark: about +30% trades per
 * second. PGlite has no such cost to save and runs the statement as db.execute does.
 */
export const executePrepared = async (statement: SQL): Promise<unknown> => {
  const h = handle();
  await h.ready;
  return trackWrite(() => (h.prepared ? h.prepared(statement) : h.db.execute(statement)));
};

/** The migrated database. Every service awaits this (it is instant after the first time). */
export const getDb = async (): Promise<Db> => {
  const h = handle();
  await h.ready;
  return h.db;
};

export const dbKind = (): TDbKind => handle().kind;

/**
 * LISTENs on a NOTIFY channel of the current database (lib/realtime's one listener per
 * instance); resolves to the function that stops listening.
 */
export const listenToNotifications: TListen = (...args) => handle().listen(...args);

/** Closes the handle (tests, scripts); the next getDb() opens a new one. */
export const closeDb = async () => {
  const h = g[KEY];
  if (!h) return;
  g[KEY] = undefined;
  await h.ready.catch(() => {});
  await h.close();
};

const RETRYABLE = new Set(['40001', '40P01']);

const pgCode = (e: unknown): string | undefined => {
  let cur: unknown = e;
  for (let i = 0; i < 4 && cur && typeof cur === 'object'; i++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
};

/** The PostgreSQL error code behind a (possibly wrapped) driver error. */
export const postgresErrorCode = pgCode;

/**
 * Runs fn in one database transaction. Serialization failures and deadlocks (which PostgreSQL
 * reports and PGlite, being one connection, never does) are retried once; fn must therefore be
 * free of side effects outside `tx`. Inside a request, a transaction whose work ends after the
 * request's deadline rolls back instead of committing (lib/clock/deadline.ts).
 */
export const withTransaction = async <T>(fn: (tx: Tx) => Promise<T>): Promise<T> => {
  const db = await getDb();
  const run = () =>
    db.transaction(async (tx) => {
      const out = await fn(tx);
      assertWithinDeadline();
      return out;
    });
  return trackWrite(async () => {
    try {
      return await run();
    } catch (e) {
      if (!RETRYABLE.has(pgCode(e) ?? '')) throw e;
      return run();
    }
  });
};

const preparedCache = new WeakMap<Db, Map<string, unknown>>();

/**
 * A query prepared once per database handle (hot paths: the per-request user lookup). Drizzle
 * then skips building the SQL on every call. Use only with the database handle, not with a tx.
 */
export const preparedQuery = <T>(db: Db, name: string, build: (db: Db) => T): T => {
  let byName = preparedCache.get(db);
  if (!byName) preparedCache.set(db, (byName = new Map()));
  let q = byName.get(name) as T | undefined;
  if (!q) byName.set(name, (q = build(db)));
  return q;
};

/** The rows of a raw `execute()`: postgres.js answers an array, PGlite an object with `rows`. */
export const rowsOf = <T>(result: unknown): T[] =>
  (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];

/**
 * A list of text values as ONE `text[]` parameter (for `= any(...)`): the statement's text stays
 * the same however many values, so PostgreSQL plans it once per connection.
 */
export const textArray = (items: readonly string[]) =>
  sql`${`{${items.map((s) => `"${s.replace(/[\\"]/g, '\\$&')}"`).join(',')}}`}::text[]`;
