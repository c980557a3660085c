/**
 * Gives every test file its own empty, migrated database: an in-memory PGlite, or, when
 * DATABASE_URL is set, a throwaway database on that server that is dropped afterwards, so tests
 * leave nothing behind. Runs before each test file.
 */
import { afterAll, beforeAll } from 'vitest';
import postgres from 'postgres';
import { closeDb } from '@/db/client';
import { resetClock } from '@/lib/clock/clock';
import { resetEnvCache } from '@/lib/env';
import { setLimiter } from '@/lib/http/rate-limit';

const baseUrl = process.env.TEST_BASE_DATABASE_URL ?? process.env.DATABASE_URL;
process.env.TEST_BASE_DATABASE_URL = baseUrl ?? '';
let throwaway: string | undefined;

beforeAll(async () => {
  await closeDb();
  setLimiter(undefined);
  resetClock();
  if (baseUrl) {
    throwaway = `pm_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${throwaway}`);
    await admin.end();
    const url = new URL(baseUrl);
    url.pathname = `/${throwaway}`;
    process.env.DATABASE_URL = url.toString();
  } else {
    process.env.DATA_DIR = 'memory://';
  }
  resetEnvCache();
  // The database opens (and migrates) on first use, so pure unit tests never pay for it.
});

afterAll(async () => {
  await closeDb();
  if (baseUrl && throwaway) {
    const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists ${throwaway} with (force)`);
    await admin.end();
    process.env.DATABASE_URL = baseUrl;
  }
});
