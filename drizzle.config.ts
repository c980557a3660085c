import { defineConfig } from 'drizzle-kit';

// drizzle-kit only generates SQL from the schema here; the app applies migrations itself
// (db/client.ts, on first use) on both PGlite and PostgreSQL.
export default defineConfig({
  dialect: 'postgresql',
  schema: './db/schema/index.ts',
  out: './db/migrations',
  strict: true,
  verbose: true,
});
