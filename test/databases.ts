/**
 * Throwaway PostgreSQL databases for tests: created on the test server (TEST_BASE_DATABASE_URL)
 * and dropped when the test file ends (test/setup-db.ts). On PGlite a fresh database is simply
 * a new in-memory one.
 */
import postgres from 'postgres';
import { closeDb } from '@/db/client';
import { resetEnvCache } from '@/lib/env';

const admin = (baseUrl: string) => postgres(baseUrl, { max: 1, onnotice: () => {} });

/** Extra databases this file switched to; setup-db drops them after the file. */
const extra: string[] = [];

export const createThrowawayDatabase = async (baseUrl: string, label: string) => {
  const name = `pm_test_${process.pid}_${label}_${Math.random().toString(36).slice(2, 10)}`;
  const sql = admin(baseUrl);
  await sql.unsafe(`create database ${name}`);
  await sql.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
};

export const dropDatabases = async (baseUrl: string, names: readonly string[]) => {
  if (!names.length) return;
  const sql = admin(baseUrl);
  for (const name of names) await sql.unsafe(`drop database if exists ${name} with (force)`);
  await sql.end();
};

/**
 * Switches this test file to a fresh, empty database (for tests that compare worlds built from
 * nothing, such as determinism): the next getDb() opens and migrates it.
 */
export const switchToFreshDatabase = async (label: string) => {
  await closeDb();
  const base = process.env.TEST_BASE_DATABASE_URL;
  if (base) {
    const db = await createThrowawayDatabase(base, `${label}_${extra.length}`);
    extra.push(db.name);
    process.env.DATABASE_URL = db.url;
  } else {
    process.env.DATA_DIR = 'memory://';
  }
  resetEnvCache();
};

/** Drops the databases switchToFreshDatabase made (called once the file's own database is closed). */
export const dropExtraDatabases = async () => {
  const base = process.env.TEST_BASE_DATABASE_URL;
  if (base) await dropDatabases(base, extra.splice(0));
};
