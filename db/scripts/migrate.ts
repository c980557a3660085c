/** npm run db:migrate — applies pending migrations to DATABASE_URL or the embedded database. */
import { closeDb, dbKind, getDb } from '@/db/client';

await getDb();
console.log(`Migrations applied (${dbKind()}).`);
await closeDb();
