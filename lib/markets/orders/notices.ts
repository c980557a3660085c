/**
 * The notices orders write, in the transaction that filled or expired them (lib/notifications
 * README lists every kind): `order_filled` for each resting order a trade filled, `order_expired`
 * for each GTD order the tick expired. Written here, as service/notices.ts writes a resolution's,
 * so lib/markets never imports lib/notifications; one INSERT … SELECT over the built rows applies
 * the recipients' per-kind preferences (db/notification-delivery.ts). Never for NPC actors.
 */
import 'server-only';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { deliveryFor, wantsNotice } from '@/db/notification-delivery';
import { notifications, users, type TMarketRow, type TPredictionOrderRow } from '@/db/schema';
import { dec, type TDecimal } from '@/lib/money/decimal';
import type { TOutcome } from '../cpmm';

type TNotice = { userId: string; kind: 'order_filled' | 'order_expired'; link: string; title: string; message: string; createdAt: Date };

/** The notices in one statement: none of a kind the recipient turned off, the digest ones marked so. */
async function insertNotices(tx: Tx, rows: readonly TNotice[]) {
  if (!rows.length) return;
  const values = sql.join(
    rows.map((r) => sql`(${r.userId}::text, ${r.kind}::text, ${r.link}::text, ${r.title}::text, ${r.message}::text, ${r.createdAt.toISOString()}::timestamptz)`),
    sql`, `,
  );
  await tx.execute(sql`
    insert into ${notifications} (id, user_id, type, kind, link, title, message, read, delivery, created_at)
    select gen_random_uuid()::text, v.user_id, 'system', v.kind, v.link, v.title, v.message, false, ${deliveryFor(sql`v.user_id`, sql`v.kind`)}, v.created_at
    from (values ${values}) as v(user_id, kind, link, title, message, created_at)
    where ${wantsNotice(sql`v.user_id`, sql`v.kind`)}`);
}

/** One notice per order a trade filled (players only, never NPC actors): what it bought, and whether it is done. */
export async function notifyOrderFills(
  tx: Tx,
  o: { marketId: string; text: string; fills: { userId: string; orderId: string; outcome: TOutcome; shares: TDecimal; spent: TDecimal; done: boolean }[]; at: Date },
) {
  if (!o.fills.length) return;
  const humans = new Set(
    (await tx.select({ id: users.id }).from(users).where(and(inArray(users.id, [...new Set(o.fills.map((f) => f.userId))]), eq(users.isActor, false)))).map((r) => r.id),
  );
  const rows = o.fills
    .filter((f) => humans.has(f.userId))
    .map((f) => ({
      userId: f.userId,
      kind: 'order_filled' as const,
      link: `/markets/${o.marketId}`,
      title: f.done ? 'Limit order filled' : 'Limit order partly filled',
      message: `Your limit order bought ${f.shares.toDecimalPlaces(2).toFixed()} ${f.outcome} shares for ${f.spent.toDecimalPlaces(2).toFixed(2)} in “${o.text.length > 80 ? `${o.text.slice(0, 79)}…` : o.text}”.`,
      createdAt: o.at,
    }));
  await insertNotices(tx, rows);
}

/** One notice per expired order (players only), with what came back. */
export async function notifyOrdersExpired(tx: Tx, market: Pick<TMarketRow, 'id' | 'text'>, rows: readonly TPredictionOrderRow[], at: Date) {
  const humans = new Set(
    (await tx.select({ id: users.id }).from(users).where(and(inArray(users.id, [...new Set(rows.map((r) => r.userId))]), eq(users.isActor, false)))).map((r) => r.id),
  );
  const list = rows
    .filter((r) => humans.has(r.userId))
    .map((r) => ({
      userId: r.userId,
      kind: 'order_expired' as const,
      link: `/markets/${market.id}`,
      title: 'Limit order expired',
      message: `Your ${r.outcome} order at ${dec(r.limitPrice).toFixed()} in “${market.text.length > 80 ? `${market.text.slice(0, 79)}…` : market.text}” expired; ${dec(r.amount).minus(r.filledAmount).toDecimalPlaces(2).toFixed(2)} was returned.`,
      createdAt: at,
    }));
  await insertNotices(tx, list);
}

