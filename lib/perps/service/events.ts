/**
 * Perps events on the `markets` channel, written to the outbox in the transaction (or the one
 * statement) of the change: perp_update (a ticker's new mark) and perp_liquidation.
 */
import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { emitEvents, outboxCtes } from '@/lib/events/outbox';

/** perp_update for a statement's CTE `source` with columns ticker and mark_price. */
export function perpUpdateCtes(source: string, at: Date) {
  return outboxCtes(
    'event',
    'markets',
    'perp_update',
    sql`select jsonb_build_object('ticker', s.ticker, 'markPrice', s.mark_price::float8, 'timestamp', ${at.toISOString()}::text) as data
      from ${sql.raw(source)} s`,
  );
}

/** perp_liquidation per row of a statement's CTE `source` with columns id, user_id and ticker. */
export function perpLiquidationCtes(source: string): SQL {
  return outboxCtes(
    'event',
    'markets',
    'perp_liquidation',
    sql`select jsonb_build_object('positionId', s.id, 'userId', s.user_id, 'ticker', s.ticker) as data from ${sql.raw(source)} s`,
  );
}

/** perp_update per ticker, in order, for marks set outside a trade (marks.ts `setMarks`); `indexPrice` only when given. */
export async function emitPerpUpdates(tx: DbOrTx, updates: readonly { ticker: string; markPrice: number; indexPrice?: number }[], at: Date) {
  await emitEvents(
    tx,
    'markets',
    updates.map((u) => ({ type: 'perp_update', data: { ticker: u.ticker, markPrice: u.markPrice, indexPrice: u.indexPrice, timestamp: at.toISOString() } })),
  );
}
