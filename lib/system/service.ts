/** Operational answers: health, and the game tick until the living-world issue fills it in. */
import { sql } from 'drizzle-orm';
import { dbKind, getDb } from '@/db/client';
import pkg from '@/package.json';

export const getHealth = async () => {
  const db = await getDb();
  await db.execute(sql`select 1`);
  return { db: dbKind(), version: pkg.version };
};

/** The per-minute game tick. The living world arrives with its own issue; until then it skips. */
export const runGameTick = async (_opts: { now?: string }) => ({ skipped: true });
