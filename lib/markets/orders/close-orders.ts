/**
 * Ending prediction orders that did not fill: a cancel by their owner (one, or many by market or
 * client id), an expiry (the tick sweeps GTD orders past `expiresAt`, in game time) and a
 * resolution (every open order of the question, before its payouts). Each runs under the market
 * lock, as every write of an order does (engine.ts), so a cancel racing a fill settles once: the
 * second to take the lock sees the first's result. The refund is exactly the unfilled reserve
 * (`amount − filledAmount`), an `order_refund` ledger row.
 */
import 'server-only';
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import { withTransaction, type Tx } from '@/db/client';
import { markets, predictionOrders, type TMarketRow, type TPredictionOrderRow } from '@/db/schema';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { emitOrderBookChanged, emitOrderUpdates } from '@/lib/events/order-updates';
import { type TBalanceChange } from '@/lib/ledger/ledger';
import { dec } from '@/lib/money/decimal';
import { lockMarket } from '../service/shared';
import { creditAll, predictionOrderDto } from './engine';
import { notifyOrdersExpired } from './notices';

const OPEN_STATUSES = ['open', 'partially_filled'] as const;
const isOpen = (r: Pick<TPredictionOrderRow, 'status'>) => (OPEN_STATUSES as readonly string[]).includes(r.status);

/**
 * Closes these open orders of one locked market as `status`, refunding each one's unfilled
 * reserve; answers them as the API shows them.
 */
export async function closeOrders(tx: Tx, market: Pick<TMarketRow, 'id' | 'text'>, rows: readonly TPredictionOrderRow[], status: 'cancelled' | 'expired', at: Date) {
  const open = rows.filter(isOpen);
  if (!open.length) return [];
  const closed = await tx
    .update(predictionOrders)
    .set({ status, closedAt: at, updatedAt: at })
    .where(and(inArray(predictionOrders.id, open.map((r) => r.id)), inArray(predictionOrders.status, [...OPEN_STATUSES])))
    .returning();
  const yes = closed.filter((r) => r.outcome === 'YES').length;
  await tx
    .update(markets)
    .set({ openYesOrders: sql`${markets.openYesOrders} - ${yes}`, openNoOrders: sql`${markets.openNoOrders} - ${closed.length - yes}` })
    .where(eq(markets.id, market.id));
  const changes: TBalanceChange[] = closed
    .map((r) => ({ r, left: dec(r.amount).minus(r.filledAmount) }))
    .filter(({ left }) => left.gt(0))
    .map(({ r, left }) => ({
      userId: r.userId,
      amount: left,
      type: 'order_refund' as const,
      description: `Refund of a ${status} limit order in "${market.text}"`,
      reference: { type: 'prediction_order', id: r.id },
    }));
  await creditAll(tx, changes);
  const dtos = closed.map(predictionOrderDto);
  await emitOrderUpdates(tx, closed.map((r, i) => ({ userId: r.userId, event: status, order: dtos[i]! })));
  await emitOrderBookChanged(tx, market.id);
  if (status === 'expired') await notifyOrdersExpired(tx, market, closed, at);
  return dtos;
}

/** The owner cancels one open order (DELETE /api/markets/orders/{orderId}). */
export async function cancelPredictionOrder(tx: Tx, o: { userId: string; orderId: string }) {
  const [found] = await tx.select({ marketId: predictionOrders.marketId, userId: predictionOrders.userId }).from(predictionOrders).where(eq(predictionOrders.id, o.orderId));
  if (!found || found.userId !== o.userId) return null;
  const market = await lockMarket(tx, found.marketId);
  const [row] = await tx.select().from(predictionOrders).where(eq(predictionOrders.id, o.orderId));
  if (!isOpen(row!)) throw new AppError('ORDER_NOT_OPEN', `This order is ${row!.status.replace('_', ' ')}`, { orderId: o.orderId, status: row!.status });
  const [dto] = await closeOrders(tx, market, [row!], 'cancelled', now());
  return dto!;
}

/** The owner cancels their open orders on a question, by client id, or all (markets locked in id order). */
export async function cancelPredictionOrders(tx: Tx, o: { userId: string; marketId?: string; clientOrderId?: string; apiKeyId?: string }) {
  const filter = and(
    eq(predictionOrders.userId, o.userId),
    inArray(predictionOrders.status, [...OPEN_STATUSES]),
    o.marketId ? eq(predictionOrders.marketId, o.marketId) : undefined,
    o.clientOrderId ? eq(predictionOrders.clientOrderId, o.clientOrderId) : undefined,
    o.apiKeyId ? eq(predictionOrders.apiKeyId, o.apiKeyId) : undefined,
  );
  const marketIds = [...new Set((await tx.select({ m: predictionOrders.marketId }).from(predictionOrders).where(filter)).map((r) => r.m))].sort();
  const ids: string[] = [];
  const at = now();
  for (const marketId of marketIds) {
    const market = await lockMarket(tx, marketId);
    const rows = await tx.select().from(predictionOrders).where(and(filter, eq(predictionOrders.marketId, marketId)));
    for (const d of await closeOrders(tx, market, rows, 'cancelled', at)) ids.push(d.id);
  }
  return ids;
}

/** Resolution: every open order of the (locked, resolving) question is cancelled and refunded before payouts. */
export async function cancelMarketOrders(tx: Tx, market: Pick<TMarketRow, 'id' | 'text' | 'openYesOrders' | 'openNoOrders'>, at: Date) {
  if (market.openYesOrders + market.openNoOrders === 0) return 0;
  const rows = await tx.select().from(predictionOrders).where(and(eq(predictionOrders.marketId, market.id), inArray(predictionOrders.status, [...OPEN_STATUSES])));
  return (await closeOrders(tx, market, rows, 'cancelled', at)).length;
}

/**
 * The tick's sweep: GTD orders past `expiresAt` (game time) are expired and refunded, a question
 * at a time, up to `limit` questions a run. Answers how many orders expired.
 */
export async function expirePredictionOrders(opts: { limit?: number } = {}) {
  const at = now();
  const due = await withTransaction(async (tx) =>
    (
      await tx
        .selectDistinct({ m: predictionOrders.marketId })
        .from(predictionOrders)
        .where(and(inArray(predictionOrders.status, [...OPEN_STATUSES]), lte(predictionOrders.expiresAt, at)))
        .orderBy(asc(predictionOrders.marketId))
        .limit(opts.limit ?? 100)
    ).map((r) => r.m),
  );
  let expired = 0;
  for (const marketId of due) {
    expired += await withTransaction(async (tx) => {
      const market = await lockMarket(tx, marketId);
      const rows = await tx
        .select()
        .from(predictionOrders)
        .where(and(eq(predictionOrders.marketId, marketId), inArray(predictionOrders.status, [...OPEN_STATUSES]), lte(predictionOrders.expiresAt, at)));
      return (await closeOrders(tx, market, rows, 'expired', at)).length;
    });
  }
  return { expired };
}
