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
 *
 * Behind a transaction-mode pooler (PgBouncer; Neon's, Supabase's or Vercel's pooled URL), each
 * transaction may run on another server connection, so nothing may rely on a session. Setting
 * DATABASE_URL_UNPOOLED declares the pooler (connectionPlan below): the pool then never prepares
 * statements (postgres.js `prepare: false`), while LISTEN and the migrations with their session
 * advisory lock use the direct URL. The 8 s statement bound cannot be a startup parameter there
 * (PgBouncer refuses unknown ones, managed poolers drop them), so the migration step stores it as
 * the role's default in this database (`ALTER ROLE <self> IN DATABASE <db> SET statement_timeout`,
 * and `jit = off` likewise: SESSION_SETTINGS)
 * through the direct connection: every server connection the pooler opens starts with it, and no
 * pooler or database setup is needed. Why not ALTER DATABASE: it needs the database's owner, which
 * the managed services' roles not always are; any role may set its own defaults.
 *
 * Read replicas (DATABASE_URL_REPLICA, one URL or several): one pool per replica, with the
 * primary pool's options, never migrated and never LISTENed on. Only an operation that declares
 * `reads: 'replica'` (lib/contracts/endpoint.ts) reads there: lib/operations/read-routing.ts runs
 * its handler inside `withReplicaReads`, and getDb() there (outside any transaction) hands out a
 * replica, round robin. Everything else is on the primary: withTransaction, withRequestTransaction,
 * executePrepared, LISTEN, the migrations, the tick, and any insert, update, delete, transaction
 * or write through execute() a replica-routed handler makes (replicaDb below).
 */
import 'server-only';
import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';
import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTable } from 'drizzle-orm/pg-core';
import { env, type TEnv } from '@/lib/env';
import { assertWithinDeadline, trackWrite } from '@/lib/clock/deadline';
import * as schema from './schema';

/**
 * One SQL statement on PostgreSQL (set on the pool's connections). Below a request's deadline
 * (10 s, lib/operations/bounds.ts), so a statement started in time ends or fails before the
 * request's answer is due.
 */
export const STATEMENT_TIMEOUT_MS = 8_000;
/**
 * PostgreSQL's JIT compiler off, as for any OLTP service: it compiles a statement whose estimated
 * cost passes jit_above_cost, and the tick's set-based statements (estimated in the millions on a
 * big world, run in a millisecond through their indexes) paid 0.8 to 1.7 s each to compile: at
 * 100,000 players the tick fell from 7.2 s to 2.4 s with it off (docs/SCALING.md).
 */
export const SESSION_SETTINGS = { statement_timeout: STATEMENT_TIMEOUT_MS, jit: 'off' } as const;

/**
 * Seconds to wait for a new connection: a database that is down fails the request within this
 * (answered 503) instead of holding it for postgres.js's default of 30 s.
 */
export const CONNECT_TIMEOUT_S = 5;

/** Seconds before the n-th reconnect attempt of a pool connection: 0.05, 0.1, 0.2 … at most 1. */
export function reconnectDelaySeconds(attempt: number) {
  return Math.min(0.05 * 2 ** attempt, 1);
}

/** A postgres.js pool: its URL and options. */
export type TPoolPlan = {
  url: string;
  max: number;
  idle_timeout: number;
  connect_timeout: number;
  /** Named prepared statements live in a session: off behind a pooler. */
  prepare: boolean;
  /** Startup parameters: none behind a pooler, which refuses unknown ones. */
  connection: Record<string, number | string>;
};

/** How the service reaches PostgreSQL, derived from the environment alone (db/client.test.ts). */
export type TConnectionPlan = {
  /** DATABASE_URL goes through a transaction-mode pooler: DATABASE_URL_UNPOOLED is set and differs. */
  pooler: boolean;
  /** The pool every request and the tick use (postgres.js options). */
  pool: TPoolPlan;
  /**
   * One pool per read replica (DATABASE_URL_REPLICA), with the primary pool's options (the
   * statement bound as a replica's role default is replicated from the primary's catalog).
   */
  replicas: TPoolPlan[];
  /** LISTEN (one connection that stays open): always direct. */
  listenUrl: string;
  /** The migrations and their session advisory lock: always direct. */
  migrateUrl: string;
  /**
   * Where the statement bound comes from: a startup parameter of each pool connection, or the
   * role's default in this database, stored at migration time (see the comment at the top).
   */
  statementTimeout: 'startup-parameter' | 'role-default';
};

/** The connection plan for PostgreSQL; undefined without DATABASE_URL (embedded PGlite). */
export function connectionPlan(
  e: Pick<TEnv, 'databaseUrl' | 'databaseUrlUnpooled' | 'dbPoolMax'> & Partial<Pick<TEnv, 'databaseUrlReplicas'>>,): TConnectionPlan | undefined {
  if (!e.databaseUrl) return undefined;
  const direct = e.databaseUrlUnpooled ?? e.databaseUrl;
  const pooler = direct !== e.databaseUrl;
  const pool = (url: string): TPoolPlan => ({
    url,
    max: e.dbPoolMax,
    idle_timeout: 30,
    connect_timeout: CONNECT_TIMEOUT_S,
    prepare: !pooler,
    connection: pooler ? {} : { ...SESSION_SETTINGS },
  });
  return {
    pooler,
    pool: pool(e.databaseUrl),
    replicas: (e.databaseUrlReplicas ?? []).map(pool),
    listenUrl: direct,
    migrateUrl: direct,
    statementTimeout: pooler ? 'role-default' : 'startup-parameter',
  };
}

/**
 * Makes SESSION_SETTINGS (the statement bound, JIT off) the current role's defaults in the current
 * database (a no-op for each that already is). Run on a direct connection; new server connections
 * pick them up, so a pooler's connections opened before the first start keep the old values until
 * the pooler recycles them.
 */
const storeRoleSessionSettings = async (sql: import('postgres').Sql) => {
  const values: [string, string][] = [
    ['statement_timeout', `${SESSION_SETTINGS.statement_timeout}ms`],
    ['jit', SESSION_SETTINGS.jit],
  ];
  for (const [name, value] of values) {
    const [row] = await sql<{ stored: boolean }[]>`
      select exists (
        select 1 from pg_db_role_setting s
        where s.setdatabase = (select oid from pg_database where datname = current_database())
          and s.setrole = (select oid from pg_roles where rolname = current_user)
          and ${`${name}=${value}`} = any(s.setconfig)
      ) as stored`;
    if (row?.stored) continue;
    await sql.unsafe(
      `do $$ begin execute format('alter role %I in database %I set ${name} = %L', current_user, current_database(), '${value}'); end $$`,
    );
  }
};

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
  /** The read replicas' handles (replicaDb), empty without DATABASE_URL_REPLICA. */
  replicas: Db[];
  /** The round robin's position. */
  nextReplica: number;
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

const openPglite = async (): Promise<Omit<THandle, 'ready' | 'replicas' | 'nextReplica'> & { migrate: () => Promise<void>; replicas?: Db[] }> => {
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

const openPostgres = async (plan: TConnectionPlan): Promise<Omit<THandle, 'ready' | 'replicas' | 'nextReplica'> & { migrate: () => Promise<void>; replicas?: Db[] }> => {
  const { default: postgres } = await import('postgres');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const { migrate } = await import('drizzle-orm/postgres-js/migrator');
  const { PgDialect } = await import('drizzle-orm/pg-core');
  // statement_timeout: no statement of a request outlives its deadline (lib/clock/deadline.ts).
  // The tick's statements run on the same pool and stay far below it (funding is one statement
  // per ticker and period: milliseconds).
  // backoff: after the database restarts, each connection retries within a second rather than
  // on postgres.js's default curve, which grows across the pool's attempts and held requests up
  // to 19 s past the restart in the fault test (test/ops/faults.test.ts).
  const observer = (g as TObserverGlobal)[OBSERVER];
  const pool = ({ url, ...poolOptions }: TPoolPlan, name: string) =>
    postgres(url, {
      ...poolOptions,
      onnotice: () => {},
      backoff: reconnectDelaySeconds,
      ...(observer ? { debug: (_connection: number, query: string) => (g as TObserverGlobal)[OBSERVER]?.(name, query) } : {}),
    });
  const client = pool(plan.pool, 'primary');
  // Read replicas: pools of their own, never migrated, never listened on.
  const replicaClients = plan.replicas.map((r, i) => pool(r, `replica${i}`));
  const direct = (directUrl: string) => postgres(directUrl, { max: 1, onnotice: () => {}, connect_timeout: CONNECT_TIMEOUT_S });
  // LISTEN needs a session: behind a pooler, its own client on the direct URL (opened on first use).
  let listenClient: ReturnType<typeof postgres> | undefined;
  const listener = () => (plan.pooler ? (listenClient ??= direct(plan.listenUrl)) : client);
  const db = drizzle(client, { schema }) as unknown as Db;
  const dialect = new PgDialect();
  return {
    db,
    replicas: replicaClients.map((c) => replicaDb(drizzle(c, { schema }) as unknown as Db, db)),
    kind: 'postgres',
    // The same client drizzle wraps (its type parsers included), so rows match db.execute's.
    // Behind a pooler there are no prepared statements: executePrepared runs db.execute.
    prepared: plan.pool.prepare
      ? (statement) => {
          const q = dialect.sqlToQuery(statement);
          return client.unsafe(q.sql, q.params as never[], { prepare: true });
        }
      : undefined,
    // postgres.js listens on one dedicated connection (outside the pool) and re-LISTENs after a
    // reconnect, calling onListen again: notifications sent meanwhile are lost, so the caller
    // re-reads what it may have missed.
    listen: async (channel, onNotify, onListen) => {
      const sub = await listener().listen(channel, () => onNotify(), () => onListen?.());
      return () => sub.unlisten();
    },
    migrate: async () => {
      // Several processes may start at once (instances, test workers): one migrates at a time,
      // holding a session lock, so on a direct connection (behind a pooler the migrations run on
      // it too: a pooler could hand their transaction to another connection than the lock's).
      const lockClient = direct(plan.migrateUrl);
      try {
        // Waiting for another process's migrations is no request statement: no 8 s bound (which,
        // stored as the role's default, this connection would otherwise start with).
        await lockClient`set statement_timeout = 0`;
        await lockClient`select pg_advisory_lock(7412001)`;
        await migrate((plan.pooler ? drizzle(lockClient) : db) as never, { migrationsFolder: migrationsFolder() });
        if (plan.statementTimeout === 'role-default') await storeRoleSessionSettings(lockClient);
        await lockClient`select pg_advisory_unlock(7412001)`;
      } finally {
        await lockClient.end();
      }
    },
    close: async () => {
      await listenClient?.end();
      await Promise.all(replicaClients.map((c) => c.end()));
      await client.end();
    },
  };
};

const open = (): THandle => {
  const plan = connectionPlan(env());
  let inner: { close: () => Promise<void>; listen: TListen; prepared?: TPrepared } | undefined;
  const handle: THandle = {
    db: undefined as unknown as Db,
    replicas: [],
    nextReplica: 0,
    kind: plan ? 'postgres' : 'pglite',
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
    const opened = plan ? await openPostgres(plan) : await openPglite();
    inner = opened;
    handle.db = opened.db;
    handle.prepared = opened.prepared;
    await opened.migrate();
    // Replicas serve reads only once the primary is migrated (the replicas replay the migrations).
    handle.replicas = opened.replicas ?? [];
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
export async function executePrepared(statement: SQL): Promise<unknown> {
  const ambient = ambientTx();
  if (ambient) return ambient.execute(statement);
  const h = handle();
  await h.ready;
  return trackWrite(() => (h.prepared ? h.prepared(statement) : h.db.execute(statement)));
}

/**
 * The migrated database. Every service awaits this (it is instant after the first time). Inside
 * `withReplicaReads` and outside any transaction, a read replica when one is configured.
 */
export async function getDb(): Promise<Db> {
  const ambient = ambientTx();
  if (ambient) return ambient as unknown as Db;
  const h = handle();
  await h.ready;
  if (h.replicas.length > 0 && readsStore().getStore() === true) return h.replicas[h.nextReplica++ % h.replicas.length]!;
  return h.db;
}

/** The primary's handle (or the request transaction): for what must never read a replica. */
async function primaryDb(): Promise<Db> {
  const ambient = ambientTx();
  if (ambient) return ambient as unknown as Db;
  const h = handle();
  await h.ready;
  return h.db;
}

/**
 * Where reads may go: `true` inside withReplicaReads, `false` inside onPrimary. Held on globalThis
 * (Next bundles routes separately).
 */
const READS = Symbol.for('playmoney.replicaReads');
type TReadsGlobal = typeof globalThis & { [READS]?: AsyncLocalStorage<boolean> };
const readsStore = () => ((globalThis as TReadsGlobal)[READS] ??= new AsyncLocalStorage<boolean>());

/**
 * Runs fn with its reads allowed on a read replica (a second or so behind the primary): getDb()
 * then hands out a replica, round robin. A no-op without replicas (PGlite, no DATABASE_URL_REPLICA).
 */
export function withReplicaReads<T>(fn: () => Promise<T>): Promise<T> {
  return readsStore().run(true, fn);
}

/** Runs fn with every read on the primary, also inside withReplicaReads (work that outlives the call). */
export function onPrimary<T>(fn: () => Promise<T>): Promise<T> {
  return readsStore().run(false, fn);
}

/** Whether getDb() here may hand out a replica (inside withReplicaReads, replicas configured). */
export function readsMayUseReplica(): boolean {
  return readsStore().getStore() === true && !ambientTx() && (g[KEY]?.replicas.length ?? 0) > 0;
}

/** Read replicas are configured: PostgreSQL with DATABASE_URL_REPLICA (from the environment alone). */
export function replicasConfigured(e: Pick<TEnv, 'databaseUrl' | 'databaseUrlReplicas'> = env()): boolean {
  return !!e.databaseUrl && e.databaseUrlReplicas.length > 0;
}

/**
 * Tests: calls fn(pool, sql) for each statement a pool sends ('primary', 'replica0', …). Set it
 * before the handle opens (closeDb, then getDb): postgres.js's `debug` hook is only installed on
 * pools opened while an observer is set.
 */
type TQueryObserver = (pool: string, query: string) => void;
const OBSERVER = Symbol.for('playmoney.db.queryObserver');
type TObserverGlobal = typeof globalThis & { [OBSERVER]?: TQueryObserver };
export function observeQueries(fn: TQueryObserver | undefined) {
  (globalThis as TObserverGlobal)[OBSERVER] = fn;
}

/** Methods of a drizzle database that write or open a transaction: always on the primary. */
const PRIMARY_ONLY = new Set<PropertyKey>(['insert', 'update', 'delete', 'transaction', 'refreshMaterializedView']);
/** SQLSTATE read_only_sql_transaction: a write sent to a hot standby. */
const READ_ONLY_SQL_TRANSACTION = '25006';

/**
 * A replica's drizzle handle that sends writes to the primary: insert, update, delete and
 * transactions (also after `with(…)`) go to the primary's handle; a raw execute() runs on the
 * replica and, when the replica refuses it as a write (25006, before doing anything), again on
 * the primary. Selects, relational queries and counts read the replica.
 */
function replicaDb(replica: Db, primary: Db): Db {
  const bind = (target: object, prop: PropertyKey) => {
    const v = Reflect.get(target, prop, target) as unknown;
    return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
  };
  return new Proxy(replica, {
    get(target, prop) {
      if (PRIMARY_ONLY.has(prop)) return bind(primary, prop);
      if (prop === 'execute') {
        return (query: SQL) =>
          Promise.resolve(target.execute(query)).catch((e: unknown) => {
            if (pgCode(e) !== READ_ONLY_SQL_TRANSACTION) throw e;
            return primary.execute(query);
          });
      }
      if (prop === 'with') {
        return (...ctes: never[]) => {
          const onReplica = target.with(...ctes);
          const primaryWith = primary.with(...ctes);
          return new Proxy(onReplica, { get: (t, p) => (PRIMARY_ONLY.has(p) ? bind(primaryWith, p) : bind(t, p)) });
        };
      }
      return bind(target, prop);
    },
  });
}

/**
 * The database handle itself, never a request transaction: for what outlives a request (the
 * realtime hub's reader keeps the handle it starts on).
 */
export async function getRootDb(): Promise<Db> {
  const h = handle();
  await h.ready;
  return h.db;
}

export function dbKind(): TDbKind {
  return handle().kind;
}

/**
 * LISTENs on a NOTIFY channel of the current database (lib/realtime's one listener per
 * instance); resolves to the function that stops listening.
 */
export const listenToNotifications: TListen = (...args) => handle().listen(...args);

/** Closes the handle (tests, scripts); the next getDb() opens a new one. */
export async function closeDb() {
  const h = g[KEY];
  if (!h) return;
  g[KEY] = undefined;
  await h.ready.catch(() => {});
  await h.close();
}

/**
 * The request transaction (lib/idempotency): while `withRequestTransaction(fn)` runs, everything fn
 * does through this module (getDb, withTransaction, executePrepared) runs in ONE transaction, so
 * a request's effect and what is recorded about it (its stored answer) commit or vanish together.
 * The services need not know: getDb() hands out the transaction, withTransaction becomes a
 * savepoint in it, executePrepared runs its statement there. Held on globalThis (Next bundles
 * routes separately); `open` turns false at commit, so work that outlives the request (a
 * fire-and-forget refresh) falls back to the pool instead of a finished transaction.
 */
type TAmbient = { tx: Tx; open: boolean };
const AMBIENT = Symbol.for('playmoney.requestTransaction');
type TAmbientGlobal = typeof globalThis & { [AMBIENT]?: AsyncLocalStorage<TAmbient> };
const ambientStore = () => ((globalThis as TAmbientGlobal)[AMBIENT] ??= new AsyncLocalStorage<TAmbient>());
const ambientTx = (): Tx | undefined => {
  const a = ambientStore().getStore();
  return a?.open ? a.tx : undefined;
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

/** Runs a transaction, and once more when PostgreSQL chose it as a serialization or deadlock victim. */
const retryOnceOnConflict = async <T>(run: () => Promise<T>): Promise<T> => {
  try {
    return await run();
  } catch (e) {
    if (!RETRYABLE.has(pgCode(e) ?? '')) throw e;
    return run();
  }
};

/**
 * Runs fn in one database transaction. Serialization failures and deadlocks (which PostgreSQL
 * reports and PGlite, being one connection, never does) are retried once; fn must therefore be
 * free of side effects outside `tx`. Inside a request, a transaction whose work ends after the
 * request's deadline rolls back instead of committing (lib/clock/deadline.ts).
 */
export async function withTransaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  // Inside a request transaction: a savepoint of it (an error rolls back this part only, and
  // the request's transaction decides whether anything is kept).
  const ambient = ambientTx();
  if (ambient) return ambient.transaction(fn);
  const db = await primaryDb();
  const run = () =>
    db.transaction(async (tx) => {
      const out = await fn(tx);
      assertWithinDeadline();
      return out;
    });
  return trackWrite(() => retryOnceOnConflict(run));
}

/**
 * Runs fn in one transaction that every database call fn makes joins (see TAmbient above).
 * A serialization failure or deadlock retries the whole of fn once, as withTransaction does; a
 * transaction whose work ends after the request's deadline rolls back instead of committing.
 */
export async function withRequestTransaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  if (ambientTx()) throw new Error('withRequestTransaction: already inside a request transaction');
  const h = handle();
  await h.ready;
  const run = () =>
    h.db.transaction(async (tx) => {
      const ambient: TAmbient = { tx, open: true };
      try {
        const out = await ambientStore().run(ambient, () => fn(tx));
        assertWithinDeadline();
        return out;
      } finally {
        ambient.open = false;
      }
    });
  return trackWrite(() => retryOnceOnConflict(run));
}

const preparedCache = new WeakMap<Db, Map<string, unknown>>();

/**
 * A query prepared once per database handle (hot paths: the per-request user lookup). Drizzle
 * then skips building the SQL on every call. Use only with the database handle, not with a tx.
 */
export function preparedQuery<T>(db: Db, name: string, build: (db: Db) => T): T {
  let byName = preparedCache.get(db);
  if (!byName) preparedCache.set(db, (byName = new Map()));
  let q = byName.get(name) as T | undefined;
  if (!q) byName.set(name, (q = build(db)));
  return q;
}

/** The rows of a raw `execute()`: postgres.js answers an array, PGlite an object with `rows`. */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/**
 * A prepared select's rows as the driver answers them (no result mapping): drizzle's prepared
 * queries have `all` on both drivers (postgres.js and PGlite) but do not declare it in their
 * types. Decode table rows with tableRowDecoder.
 */
export function rawRows(prepared: unknown, params: Record<string, unknown>): Promise<Record<string, unknown>[]> {
  return (prepared as { all: (p: Record<string, unknown>) => Promise<Record<string, unknown>[]> }).all(params);
}

/**
 * A table's row from a raw row (a prepared query's `.all()`, or `db.execute`), each column decoded
 * by its own driver mapping as drizzle's result mapper does it, without that mapper's per-field
 * dispatch: for reads that answer many rows per request (the markets list). The raw row names its
 * columns as the database does; one the statement did not select is a programming error.
 */
export function tableRowDecoder<T extends PgTable>(table: T): (raw: Record<string, unknown>) => T['$inferSelect'] {
  const columns = Object.entries(getTableColumns(table)).map(([key, column]) => [key, column.name, column] as const);
  return (raw) => {
    const row: Record<string, unknown> = {};
    for (const [key, name, column] of columns) {
      const value = raw[name];
      if (value === undefined) throw new Error(`tableRowDecoder: the row has no column ${name}`);
      row[key] = value === null ? null : column.mapFromDriverValue(value);
    }
    return row as T['$inferSelect'];
  };
}

/**
 * A list of text values as ONE `text[]` parameter (for `= any(...)`): the statement's text stays
 * the same however many values, so PostgreSQL plans it once per connection.
 */
export function textArray(items: readonly string[]) {
  return sql`${`{${items.map((s) => `"${s.replace(/[\\"]/g, '\\$&')}"`).join(',')}}`}::text[]`;
}

/** As textArray, with nulls (an unquoted NULL element of the array literal). */
export function nullableTextArray(items: readonly (string | null)[]) {
  return sql`${`{${items.map((s) => (s === null ? 'NULL' : `"${s.replace(/[\\"]/g, '\\$&')}"`)).join(',')}}`}::text[]`;
}

/**
 * `unnest(a::text[], b::text[], …) as alias(a, b, …)`: many rows as one text[] parameter per
 * column, for set-based writers (lib/markets/history.ts, lib/perps/history.ts, lib/ledger/batch.ts):
 * a handful of parameters however many rows, so the size of a chunk, not PostgreSQL's 65,535
 * parameters, bounds it. Every column is text; the statement casts what it reads.
 */
export function unnestSql(alias: string, columns: Record<string, readonly (string | null)[]>): SQL {
  if (!/^[a-z_][a-z0-9_]*$/i.test(alias)) throw new Error(`unnestSql: not an alias: ${alias}`);
  const names = Object.keys(columns);
  for (const n of names) if (!/^[a-z_][a-z0-9_]*$/i.test(n)) throw new Error(`unnestSql: not a column name: ${n}`);
  return sql`unnest(${sql.join(
    names.map((n) => nullableTextArray(columns[n]!)),
    sql`, `,
  )}) as ${sql.raw(alias)}(${sql.raw(names.join(', '))})`;
}
