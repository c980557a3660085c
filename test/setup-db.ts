/**
 * Gives every test file its own empty, migrated database: an in-memory PGlite, or, when
 * DATABASE_URL is set, a throwaway database on that server that is dropped afterwards, so tests
 * leave nothing behind. Runs before each test file.
 */
import { afterAll, beforeAll } from 'vitest';
import { closeDb } from '@/db/client';
import { resetClock } from '@/lib/clock/clock';
import { resetEnvCache } from '@/lib/env';
import { setLimiter } from '@/lib/operations/rate-limit';
import { setResponseCheck } from '@/lib/http/route';
import { buildOpenApiDocument } from '@/lib/openapi/document';
import { createThrowawayDatabase, dropDatabases, dropExtraDatabases } from './databases';
import { createResponseCheck } from './openapi/response-check';

const baseUrl = process.env.TEST_BASE_DATABASE_URL ?? process.env.DATABASE_URL;
process.env.TEST_BASE_DATABASE_URL = baseUrl ?? '';
let throwaway: string | undefined;

// Every answer a test provokes, success or error, is checked strictly against the OpenAPI document
// before it leaves the handler (its status declared, its JSON valid against that status's schema).
setResponseCheck(createResponseCheck(() => buildOpenApiDocument('0.0.0-test')));

beforeAll(async () => {
  await closeDb();
  setLimiter(undefined);
  resetClock();
  if (baseUrl) {
    const db = await createThrowawayDatabase(baseUrl, 'file');
    throwaway = db.name;
    process.env.DATABASE_URL = db.url;
  } else {
    process.env.DATA_DIR = 'memory://';
  }
  resetEnvCache();
  // The database opens (and migrates) on first use, so pure unit tests never pay for it.
});

afterAll(async () => {
  await closeDb();
  await dropExtraDatabases();
  if (baseUrl && throwaway) {
    await dropDatabases(baseUrl, [throwaway]);
    process.env.DATABASE_URL = baseUrl;
  }
});
