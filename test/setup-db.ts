/**
 * Gives every test file its own empty, migrated database: an in-memory PGlite, or, when
 * DATABASE_URL is set, a throwaway database on that server that is dropped afterwards, so tests
 * leave nothing behind. Runs before each test file. With DATABASE_URL_UNPOOLED also set
 * (DATABASE_URL goes through a transaction-mode pooler, as in CI's PgBouncer step), the
 * throwaway database is made on the direct URL and the file gets both URLs (test/databases.ts).
 * With DATABASE_URL_REPLICA (streaming replicas of that server, as CI's .ci/replica.sh step
 * starts), the file also gets its database's URL on each replica.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { closeDb, getDb } from '@/db/client';
import { resetClock } from '@/lib/clock/clock';
import { resetEnvCache } from '@/lib/env';
import { stopPushKicks } from '@/lib/a2a/push/outbox';
import { setLimiter } from '@/lib/operations/rate-limit';
import { setResponseCheck } from '@/lib/http/route';
import { buildOpenApiDocument } from '@/lib/openapi/document';
import { createThrowawayDatabase, dropDatabases, dropExtraDatabases, testServer, pointAtDatabase } from './databases';
import { createResponseCheck } from './openapi/response-check';

const baseUrl = process.env.TEST_BASE_DATABASE_URL ?? process.env.DATABASE_URL;
const baseUnpooledUrl = process.env.TEST_BASE_DATABASE_URL_UNPOOLED ?? process.env.DATABASE_URL_UNPOOLED;
process.env.TEST_BASE_DATABASE_URL = baseUrl ?? '';
process.env.TEST_BASE_DATABASE_URL_UNPOOLED = (baseUrl && baseUnpooledUrl) || '';
const baseReplicaUrl = process.env.TEST_BASE_DATABASE_URL_REPLICA ?? process.env.DATABASE_URL_REPLICA;
process.env.TEST_BASE_DATABASE_URL_REPLICA = (baseUrl && baseReplicaUrl) || '';
const server = testServer();
let throwaway: string | undefined;

// Every answer a test provokes, success or error, is checked strictly against the OpenAPI document
// before it leaves the handler (its status declared, its JSON valid against that status's schema).
setResponseCheck(createResponseCheck(() => buildOpenApiDocument('0.0.0-test')));

beforeAll(async () => {
  await closeDb();
  setLimiter(undefined);
  resetClock();
  if (server) {
    const db = await createThrowawayDatabase(server, 'file');
    throwaway = db.name;
    pointAtDatabase(db);
  } else {
    process.env.DATA_DIR = 'memory://';
  }
  resetEnvCache();
  // The database opens (and migrates) on first use, so pure unit tests never pay for it. A file
  // that uses it (*.int.test.ts) opens it here, within the hook's budget (vitest.config.ts
  // hookTimeout), so its first test's own timeout covers the test, not the database starting.
  if (expect.getState().testPath?.endsWith('.int.test.ts')) await getDb();
});

afterAll(async () => {
  // A push delivery the file's last requests kicked would open a connection as the pool closes.
  await stopPushKicks();
  await closeDb();
  await dropExtraDatabases();
  if (server && throwaway) {
    await dropDatabases(server, [throwaway]);
    pointAtDatabase({ url: server.url, unpooledUrl: server.unpooledUrl, replicaUrls: server.replicaUrls });
  }
});
