/**
 * The caller's orders of both kinds (README): the list, newest first, and the cancels.
 */
import 'server-only';
import { inArray, sql } from 'drizzle-orm';
import { getDb, rowsOf, withTransaction } from '@/db/client';
import { perpOrders, predictionOrders } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { AppError } from '@/lib/errors/app-error';
import { cancelPredictionOrder, cancelPredictionOrders } from '@/lib/markets/orders/close-orders';
import { predictionOrderDto } from '@/lib/markets/orders/engine';
import { cancelPerpOrder, cancelPerpOrders, perpOrderDto } from '@/lib/perps/service/orders';

export type TOrderStatusFilter = 'open' | 'partially_filled' | 'filled' | 'cancelled' | 'expired' | 'triggered' | 'all';

export async function listOrders(input: { caller: TCaller; status: TOrderStatusFilter; marketId?: string; ticker?: string; limit: number; offset: number }) {
  const { caller, status, marketId, ticker, limit, offset } = input;
  const db = await getDb();
  const predStatus =
    status === 'all' ? sql`true` : status === 'open' ? sql`status in ('open', 'partially_filled')` : sql`status = ${status}`;
  const perpStatus = status === 'all' ? sql`true` : status === 'partially_filled' ? sql`false` : sql`status = ${status}`;
  // A question filter leaves perp orders out and a ticker filter prediction orders.
  const withPred = ticker === undefined;
  const withPerp = marketId === undefined;
  const parts = [
    ...(withPred
      ? [sql`select id, 'prediction' as kind, created_at, seq from ${predictionOrders}
             where user_id = ${caller.userId} and ${predStatus}${marketId ? sql` and market_id = ${marketId}` : sql``}`]
      : []),
    ...(withPerp
      ? [sql`select id, 'perp' as kind, created_at, seq from ${perpOrders}
             where user_id = ${caller.userId} and ${perpStatus}${ticker ? sql` and ticker = ${ticker}` : sql``}`]
      : []),
  ];
  const union = sql.join(parts, sql` union all `);
  const page = rowsOf<{ id: string; kind: 'prediction' | 'perp'; total: string | number }>(
    await db.execute(sql`
      select id, kind, count(*) over () as total from (${union}) o
      order by created_at desc, seq desc
      limit ${limit} offset ${offset}`),
  );
  let total = Number(page[0]?.total ?? 0);
  if (!page.length && offset > 0) {
    const [c] = rowsOf<{ n: string | number }>(await db.execute(sql`select count(*) as n from (${union}) o`));
    total = Number(c?.n ?? 0);
  }
  const predIds = page.filter((r) => r.kind === 'prediction').map((r) => r.id);
  const perpIds = page.filter((r) => r.kind === 'perp').map((r) => r.id);
  const [preds, perps] = await Promise.all([
    predIds.length ? db.select().from(predictionOrders).where(inArray(predictionOrders.id, predIds)) : [],
    perpIds.length ? db.select().from(perpOrders).where(inArray(perpOrders.id, perpIds)) : [],
  ]);
  const byId = new Map<string, ReturnType<typeof predictionOrderDto> | ReturnType<typeof perpOrderDto>>([
    ...preds.map((r) => [r.id, predictionOrderDto(r)] as const),
    ...perps.map((r) => [r.id, perpOrderDto(r)] as const),
  ]);
  return { orders: page.map((r) => byId.get(r.id)!).filter(Boolean), pagination: { limit, offset, total } };
}

/** Cancels one of the caller's open orders, of either kind. */
export async function cancelOrder(input: { caller: TCaller; orderId: string }) {
  const { caller, orderId } = input;
  return withTransaction(async (tx) => {
    const pred = await cancelPredictionOrder(tx, { userId: caller.userId, orderId });
    if (pred) return { order: pred };
    const [perp] = await tx.select({ id: perpOrders.id }).from(perpOrders).where(sql`${perpOrders.id} = ${orderId} and ${perpOrders.userId} = ${caller.userId}`);
    if (!perp) throw new AppError('ORDER_NOT_FOUND', 'Order not found', { orderId });
    return { order: await cancelPerpOrder(tx, { userId: caller.userId, orderId }) };
  });
}

/**
 * Cancels the caller's open orders on a question, a ticker, by client id, or all of them; with
 * `apiKeyId`, only those that key placed (its dead-man switch, lib/api-keys).
 */
export async function cancelOrders(input: { caller: Pick<TCaller, 'userId'>; marketId?: string; ticker?: string; clientOrderId?: string; apiKeyId?: string }) {
  const { caller, marketId, ticker, clientOrderId, apiKeyId } = input;
  return withTransaction(async (tx) => {
    const cancelled: string[] = [];
    if (ticker === undefined) cancelled.push(...(await cancelPredictionOrders(tx, { userId: caller.userId, marketId, clientOrderId, apiKeyId })));
    if (marketId === undefined) cancelled.push(...(await cancelPerpOrders(tx, { userId: caller.userId, ticker, clientOrderId, apiKeyId })));
    return { cancelled };
  });
}
