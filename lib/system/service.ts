/** Operational answers: health, and the game tick (lib/game/tick). */
import 'server-only';
import { sql } from 'drizzle-orm';
import { dbKind, getDb } from '@/db/client';
import pkg from '@/package.json';

export async function getHealth() {
  const db = await getDb();
  await db.execute(sql`select 1`);
  return { db: dbKind(), version: pkg.version };
}

export { runGameTick } from '@/lib/game/tick';
