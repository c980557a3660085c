import { defineConfig } from 'vitest/config';
import base from './vitest.config';

// The operations suite (`npm run test:ops`, test/ops): production server processes on PostgreSQL
// and Redis (fault injection, several instances, the short soak). Slow and stateful: one file at
// a time, long timeouts, and no test/setup-db.ts (each file makes and drops its own databases).
export default defineConfig({
  // The same module resolution as npm test (the `@` alias, the empty 'server-only').
  resolve: base.resolve,
  test: {
    environment: 'node',
    include: ['test/ops/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 600_000,
    env: { LOCAL_SCHEDULER: '0' },
  },
});
