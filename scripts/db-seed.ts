/** npm run db:seed — migrates, then seeds the world (idempotent). */
import { dbKind, getDb } from '@/db/client';
import { seedWorld } from '@/lib/world/seed/world';
import { runScript } from './run-db-script';

await runScript(async () => {
  const { newActors } = await seedWorld(await getDb());
  return `World seeded (${dbKind()}): ${newActors} new actors.`;
});
