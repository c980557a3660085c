/**
 * The trade row a successful service call wrote, so the post announcing it can name it
 * (`posts.trade_kind` / `posts.trade_id`). The services answer the position; these read the
 * `trades` / `perp_trades` row of that position. Reads only; never feeds the tick's rng (the ids
 * are random), so the world stays deterministic.
 */
import { sql } from 'drizzle-orm';
import { getDb, rowsOf } from '@/db/client';
import { perpTrades, trades } from '@/db/schema';

export type TTradeLink = { kind: 'prediction' | 'perp'; id: string };

/** The newest prediction trade (`buy`/`sell`) of the user on this market position. */
export async function predictionTradeLink(o: { userId: string; positionId: string; action: 'buy' | 'sell' }): Promise<TTradeLink | null> {
  const db = await getDb();
  const [row] = rowsOf<{ id: string }>(
    await db.execute(sql`
      select id from ${trades} where position_id = ${o.positionId} and user_id = ${o.userId} and action = ${o.action}
      order by created_at desc, id desc limit 1`),
  );
  return row ? { kind: 'prediction', id: row.id } : null;
}

/** The `open` or `close` trade of a perp position (one of each at most). */
export async function perpTradeLink(o: { positionId: string; action: 'open' | 'close' }): Promise<TTradeLink | null> {
  const db = await getDb();
  const [row] = rowsOf<{ id: string }>(
    await db.execute(sql`select id from ${perpTrades} where position_id = ${o.positionId} and action = ${o.action} limit 1`),
  );
  return row ? { kind: 'perp', id: row.id } : null;
}
