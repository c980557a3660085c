/** npm run db:seed — migrates, then seeds the world (idempotent). */
import { closeDb, dbKind, getDb } from '@/db/client';
import { seedWorld } from '@/db/seed/world';

const db = await getDb();
const { newActors } = await seedWorld(db);
console.log(`World seeded (${dbKind()}): ${newActors} new actors.`);
await closeDb();
