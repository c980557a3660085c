import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      '@': path.resolve(import.meta.dirname),
      // Server modules import 'server-only' so that a browser bundle that reaches them fails the
      // build; tests are server code, and get the marker's empty module (what Next's server gets).
      'server-only': path.resolve(import.meta.dirname, 'node_modules/server-only/empty.js'),
    },
  },
  test: {
    environment: 'node',
    include: ['lib/**/*.test.ts', 'db/**/*.test.ts', 'app/**/*.test.ts', 'test/**/*.test.ts'],
    // The operations suite (production servers, a built tree) is `npm run test:ops` (vitest.ops.config.ts),
    // the security suite `npm run test:security` (vitest.security.config.ts).
    exclude: ['**/node_modules/**', '**/.git/**', 'test/ops/**', 'test/security/**'],
    setupFiles: ['./test/setup-db.ts'],
    pool: 'forks',
    // Two cores: two files at a time keeps PGlite start-up and PostgreSQL schemas from thrashing.
    maxWorkers: 2,
    testTimeout: 30_000,
    // Start-up's own budget: test/setup-db.ts opens (and migrates) the database of a *.int.test.ts
    // file in its beforeAll, so a file's first test does not pay for it within testTimeout.
    hookTimeout: 60_000,
    env: { NODE_ENV: 'test', LOCAL_SCHEDULER: '0' },
  },
});
