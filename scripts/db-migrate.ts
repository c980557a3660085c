/** npm run db:migrate — applies pending migrations to DATABASE_URL or the embedded database. */
import { dbKind, getDb } from '@/db/client';
import { runScript } from './run-db-script';

await runScript(async () => {
  await getDb();
  return `Migrations applied (${dbKind()}).`;
});
