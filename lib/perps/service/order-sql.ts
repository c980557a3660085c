/**
 * Perp orders in SQL, for the one-statement writers that touch them: the trigger statements
 * (order-triggers.ts), the close (close-position.ts) and the liquidation sweep (liquidate.ts),
 * which cancel the open stop-losses and take-profits of the positions they close. No I/O here.
 * `perpOrderJsonSql` is the SQL twin of orders.ts `perpOrderDto` (what `order_update` carries);
 * test/api/perp-orders.int.test.ts holds the two equal.
 */
import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import { perpOrders } from '@/db/schema';

/** Whether `mark` fires the order aliased `o` (lib/perps/orders.ts isTriggered). */
export function crossedSql(o: string, mark: SQL) {
  const a = sql.raw(o);
  return sql`((${a}.fires_when = 'below' and (${mark}) <= ${a}.trigger_price) or (${a}.fires_when = 'above' and (${mark}) >= ${a}.trigger_price))`;
}

const isoSql = (v: SQL) => sql`to_char((${v}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The order row aliased `o` as the API answers it (ZPerpOrder), as jsonb. */
export function perpOrderJsonSql(o: string) {
  const a = sql.raw(o);
  return sql`jsonb_build_object('id', ${a}.id, 'kind', 'perp', 'ticker', ${a}.ticker, 'type', ${a}.type, 'side', ${a}.side,
    'size', ${a}.size::float8, 'leverage', ${a}.leverage::float8, 'triggerPrice', ${a}.trigger_price::float8,
    'positionId', ${a}.position_id, 'status', ${a}.status, 'clientOrderId', ${a}.client_order_id,
    'createdAt', ${isoSql(sql`${a}.created_at`)}, 'triggeredAt', ${isoSql(sql`${a}.triggered_at`)})`;
}

/**
 * The rows of `order_update` events (`event` a SQL text expression over `s`) for the order rows of
 * the CTE `source`, each to its owner's channel: for lib/events/outbox.ts outboxChannelCtes, or
 * (one owner) outboxCtes, which ignores the channel column.
 */
export function orderUpdateRowsSql(source: string, event: SQL, at: Date) {
  return sql`select 'user:' || s.user_id as channel,
      jsonb_build_object('event', ${event}, 'order', ${perpOrderJsonSql('s')}, 'timestamp', ${at.toISOString()}::text) as data
    from ${sql.raw(source)} s`;
}

/**
 * CTE `<name>`: cancels the open orders (stop-losses and take-profits) of the positions the CTE
 * `closedPositions` (column `id`) lists, with `note`; returns the cancelled rows. `exceptOrderId`
 * leaves out the order the statement itself fired (a statement must not update a row twice).
 */
export function cancelPositionOrdersCte(o: { name: string; closedPositions: string; note: string; at: Date; exceptOrderId?: string }) {
  const ts = sql`${o.at.toISOString()}::timestamptz`;
  const except = o.exceptOrderId ? sql` and po.id <> ${o.exceptOrderId}` : sql``;
  return sql`${sql.raw(o.name)} as (
      update ${perpOrders} po set status = 'cancelled', note = ${o.note}, updated_at = ${ts}
      where po.position_id in (select id from ${sql.raw(o.closedPositions)}) and po.status = 'open'${except}
      returning po.*
    )`;
}
