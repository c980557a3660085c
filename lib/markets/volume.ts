/**
 * The tick's pruning of market_volume_hours (bounded storage): the 24 h volume reads at most the
 * last 25 hours (lib/markets/sql.ts volume24hSql), so hours two days old are dropped. Measured from
 * the earlier of the tick's game time and the wall clock: a test clock run days ahead must not
 * drop the hours a reader at the present still needs.
 *
 * A leaf: it imports the database and the table, nothing of the markets' services.
 */
import 'server-only';
import { lt } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { marketVolumeHours } from '@/db/schema';

/** How long an hour's volume row is kept. */
export const VOLUME_HOURS_KEEP_MS = 48 * 3_600_000;

/** Deletes the hour rows older than VOLUME_HOURS_KEEP_MS before min(`at`, wall time); returns how many. */
export async function pruneVolumeHours(at: Date): Promise<number> {
  const db = await getDb();
  const from = Math.min(at.getTime(), Date.now()) - VOLUME_HOURS_KEEP_MS;
  const gone = await db
    .delete(marketVolumeHours)
    .where(lt(marketVolumeHours.hour, new Date(from)))
    .returning({ marketId: marketVolumeHours.marketId });
  return gone.length;
}
