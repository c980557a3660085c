/**
 * The notices orders write, in the transaction that filled or expired them (lib/notifications
 * README lists every kind): `order_filled` for each resting order a trade filled, `order_expired`
 * for each GTD order the tick expired. Written here, as service/notices.ts writes a resolution's,
 * so lib/markets never imports lib/notifications. Never for NPC actors.
 */
import 'server-only';
import { and, eq, inArray } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { notifications, users, type TMarketRow, type TPredictionOrderRow } from '@/db/schema';
import { dec, type TDecimal } from '@/lib/money/decimal';
import type { TOutcome } from '../cpmm';

const SYSTEM = 'system' as const;

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
      type: SYSTEM,
      kind: 'order_filled',
      link: `/markets/${o.marketId}`,
      title: f.done ? 'Limit order filled' : 'Limit order partly filled',
      message: `Your limit order bought ${f.shares.toDecimalPlaces(2).toFixed()} ${f.outcome} shares for ${f.spent.toDecimalPlaces(2).toFixed(2)} in “${o.text.length > 80 ? `${o.text.slice(0, 79)}…` : o.text}”.`,
      read: false,
      createdAt: o.at,
    }));
  if (rows.length) await tx.insert(notifications).values(rows);
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
      type: SYSTEM,
      kind: 'order_expired',
      link: `/markets/${market.id}`,
      title: 'Limit order expired',
      message: `Your ${r.outcome} order at ${dec(r.limitPrice).toFixed()} in “${market.text.length > 80 ? `${market.text.slice(0, 79)}…` : market.text}” expired; ${dec(r.amount).minus(r.filledAmount).toDecimalPlaces(2).toFixed(2)} was returned.`,
      read: false,
      createdAt: at,
    }));
  if (list.length) await tx.insert(notifications).values(list);
}

