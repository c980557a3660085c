import { defineConfig } from 'vitest/config';
import base from './vitest.config';

// The security suite (`npm run test:security`, test/security): the issue-29 attacks over real HTTP
// against production servers from a built tree (OPS_APP_DIR, default the working directory), one on
// a throwaway PostgreSQL database and one on the embedded PGlite, started once for the whole suite
// by test/security/global-setup.ts. One file at a time, and no test/setup-db.ts (the servers own
// their databases; state is read back through the API).
export default defineConfig({
  // The same module resolution as npm test (the `@` alias, the empty 'server-only').
  resolve: base.resolve,
  test: {
    environment: 'node',
    include: ['test/security/**/*.test.ts'],
    globalSetup: ['./test/security/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 600_000,
    env: { LOCAL_SCHEDULER: '0' },
  },
});
