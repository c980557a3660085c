/**
 * The tick's pruning of perp_volume_hours (bounded storage): a ticker's 24 h volume reads at most
 * the last 25 hours (service/read.ts), so hours older than the markets' keep window
 * (lib/markets/volume.ts, two days) are dropped, measured from the earlier of the tick's game time
 * and the wall clock as there.
 *
 * A leaf: it imports the database and the table, nothing of the perps' services.
 */
import 'server-only';
import { lt } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { perpVolumeHours } from '@/db/schema';

/** How long an hour's volume row is kept (as the questions' hour rows). */
export const PERP_VOLUME_HOURS_KEEP_MS = 48 * 3_600_000;

/** Deletes the hour rows older than PERP_VOLUME_HOURS_KEEP_MS before min(`at`, wall time); returns how many. */
export async function prunePerpVolumeHours(at: Date): Promise<number> {
  const db = await getDb();
  const from = Math.min(at.getTime(), Date.now()) - PERP_VOLUME_HOURS_KEEP_MS;
  const gone = await db
    .delete(perpVolumeHours)
    .where(lt(perpVolumeHours.hour, new Date(from)))
    .returning({ ticker: perpVolumeHours.ticker });
  return gone.length;
}
