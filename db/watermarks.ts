/**
 * The tick's incremental steps remember how far they have read in detector_state, one row per
 * step ('self_dealing' for the detector, 'price_moves' for the price-move alerts): `trades_through`
 * is the time the step's last run read up to. Reading and writing that row, said once.
 */
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from './client';
import { detectorState } from './schema';

/** The step's watermark; undefined when it never ran (its next run is a full one). */
export async function readWatermark(db: DbOrTx, id: string): Promise<Date | undefined> {
  const [r] = rowsOf<{ t: string | Date }>(await db.execute(sql`select trades_through as t from ${detectorState} where id = ${id}`));
  return r ? (r.t instanceof Date ? r.t : new Date(String(r.t))) : undefined;
}

/** The statement (or a CTE's body) that sets the step's watermark to `at` (a timestamptz expression). */
export function watermarkUpsert(id: string, at: SQL): SQL {
  return sql`insert into ${detectorState} (id, trades_through, updated_at) values (${id}, ${at}, ${at})
        on conflict (id) do update set trades_through = excluded.trades_through, updated_at = excluded.updated_at`;
}
