/**
 * Throwaway PostgreSQL databases for tests: created on the test server (TEST_BASE_DATABASE_URL)
 * and dropped when the test file ends (test/setup-db.ts). On PGlite a fresh database is simply
 * a new in-memory one. When the server is reached through a transaction-mode pooler
 * (TEST_BASE_DATABASE_URL_UNPOOLED, taken from DATABASE_URL_UNPOOLED, is the direct URL), the
 * databases are created and dropped on the direct URL and a test file gets both URLs for its
 * database, as the service would in production (db/client.ts connectionPlan). With read replicas
 * (TEST_BASE_DATABASE_URL_REPLICA, taken from DATABASE_URL_REPLICA: one URL or several, comma
 * separated, of streaming replicas of the test server, as .ci/replica.sh makes), a database made
 * on the server is replicated to them, and a test file gets its URL on each replica too.
 */
import postgres from 'postgres';
import { closeDb } from '@/db/client';
import { resetEnvCache, splitDatabaseUrls } from '@/lib/env';

/** The server tests create their databases on; undefined: PGlite. */
export type TTestServer = { url: string; unpooledUrl?: string; replicaUrls?: string[] };

/** The test server from the environment setup-db recorded. */
export const testServer = (): TTestServer | undefined => {
  const url = process.env.TEST_BASE_DATABASE_URL;
  if (!url) return undefined;
  const replicaUrls = splitDatabaseUrls(process.env.TEST_BASE_DATABASE_URL_REPLICA);
  return { url, unpooledUrl: process.env.TEST_BASE_DATABASE_URL_UNPOOLED || undefined, ...(replicaUrls.length ? { replicaUrls } : {}) };
};

const admin = (server: TTestServer) =>
  postgres(server.unpooledUrl ?? server.url, { max: 1, onnotice: () => {}, connect_timeout: 5 });

const withDatabase = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

export const createThrowawayDatabase = async (server: TTestServer, label: string) => {
  const name = `pm_test_${process.pid}_${label}_${Math.random().toString(36).slice(2, 10)}`;
  const sql = admin(server);
  await sql.unsafe(`create database ${name}`);
  await sql.end();
  return {
    name,
    url: withDatabase(server.url, name),
    unpooledUrl: server.unpooledUrl ? withDatabase(server.unpooledUrl, name) : undefined,
    replicaUrls: server.replicaUrls?.map((u) => withDatabase(u, name)),
  };
};

export const dropDatabases = async (server: TTestServer, names: readonly string[]) => {
  if (!names.length) return;
  const sql = admin(server);
  for (const name of names) await sql.unsafe(`drop database if exists ${name} with (force)`);
  await sql.end();
};

/**
 * Points the service (db/client.ts) at a database: its URL, behind a pooler its direct URL, and
 * its URLs on the read replicas when there are any.
 */
export const pointAtDatabase = (db: { url: string; unpooledUrl?: string; replicaUrls?: string[] }) => {
  process.env.DATABASE_URL = db.url;
  if (db.unpooledUrl) process.env.DATABASE_URL_UNPOOLED = db.unpooledUrl;
  else delete process.env.DATABASE_URL_UNPOOLED;
  if (db.replicaUrls?.length) process.env.DATABASE_URL_REPLICA = db.replicaUrls.join(',');
  else delete process.env.DATABASE_URL_REPLICA;
  resetEnvCache();
};

/** Extra databases this file switched to; setup-db drops them after the file. */
const extra: string[] = [];

/**
 * Switches this test file to a fresh, empty database (for tests that compare worlds built from
 * nothing, such as determinism): the next getDb() opens and migrates it.
 */
export const switchToFreshDatabase = async (label: string) => {
  await closeDb();
  const server = testServer();
  if (server) {
    const db = await createThrowawayDatabase(server, `${label}_${extra.length}`);
    extra.push(db.name);
    pointAtDatabase(db);
  } else {
    process.env.DATA_DIR = 'memory://';
  }
  resetEnvCache();
};

/** Drops the databases switchToFreshDatabase made (called once the file's own database is closed). */
export const dropExtraDatabases = async () => {
  const server = testServer();
  if (server) await dropDatabases(server, extra.splice(0));
};
