/**
 * Perp orders (issue 32, CONTRACT.md "Orders"): placing a stop-loss, take-profit or limit order
 * (POST /api/markets/perps/orders), cancelling one or many (for lib/orders), and the API shape.
 * Firing them is order-triggers.ts, run before every liquidation sweep.
 *
 * - A stop-loss or take-profit attaches to an open position of the caller, on the side of the
 *   mark where it has not fired yet (lib/perps/orders.ts placementProblem). It holds no money.
 *   Placing it locks the position (FOR SHARE: a close waits for the order to exist, and cancels
 *   it with the position).
 * - A limit order reserves its margin and opening fee at once: a `perp_order_reserve` debit
 *   (reference perp_order) in the placing transaction, recorded in `reserved`; a cancel gives
 *   exactly that back (`perp_order_refund`); a fill spends it on the open. One the mark already
 *   satisfies fills right after it is placed (the trigger pass runs for its ticker).
 * - `clientOrderId` is unique among the caller's open orders of both kinds (the partial unique
 *   index holds it among perp orders under concurrency).
 * - `dryRun` runs the real placement and rolls it back (db/dry-run.ts): the same checks and the
 *   same answer, plus `preview` (what the order does when it fires at its price), nothing written.
 * Every change writes `order_update` on the owner's channel in its transaction.
 */
import 'server-only';
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { getDb, postgresErrorCode, rowsOf, withTransaction, type Tx } from '@/db/client';
import { runDryRun } from '@/db/dry-run';
import { perpMarkets, perpOrders, perpPositions, predictionOrders, type TPerpOrderRow } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { emitOrderUpdate, emitOrderUpdates } from '@/lib/events/order-updates';
import { credit, debit } from '@/lib/ledger/ledger';
import { D, dec, toDecimalString, toNumber, type TDecimal } from '@/lib/money/decimal';
import { orderProblem, PRICE_SCALE, withAccruedFunding, type TPerpSide } from '../math';
import { firesWhenOf, isTriggered, placementProblem, quoteLimit, quoteTriggerClose, type TPerpOrderType } from '../orders';
import { liquidateAfterTrade } from './liquidate';

/**
 * A perp order as the API answers it: lib/contracts/orders.ts ZPerpOrder documents this shape (the
 * shape is owned here, as ../dto.ts owns the other perps shapes: lib/contracts imports lib/perps).
 */
export type TPerpOrderDto = {
  id: string;
  kind: 'perp';
  ticker: string;
  type: TPerpOrderType;
  side: TPerpSide;
  /** Notional; null on a stop-loss or take-profit for the whole position. */
  size: number | null;
  leverage: number | null;
  triggerPrice: number;
  positionId: string | null;
  status: TPerpOrderRow['status'];
  clientOrderId: string | null;
  createdAt: string;
  triggeredAt: string | null;
};

/** An order row as the API answers it (ZPerpOrder). order-sql.ts perpOrderJsonSql is its SQL twin. */
export function perpOrderDto(r: TPerpOrderRow): TPerpOrderDto {
  return {
    id: r.id,
    kind: 'perp',
    ticker: r.ticker,
    type: r.type,
    side: r.side,
    size: r.size === null ? null : toNumber(r.size),
    leverage: r.leverage === null ? null : toNumber(r.leverage),
    triggerPrice: toNumber(r.triggerPrice),
    positionId: r.positionId,
    status: r.status,
    clientOrderId: r.clientOrderId,
    createdAt: r.createdAt.toISOString(),
    triggeredAt: r.triggeredAt ? r.triggeredAt.toISOString() : null,
  };
}

export type TPlacePerpOrderInput = {
  caller: TCaller;
  ticker: string;
  type: TPerpOrderType;
  triggerPrice: number | string;
  positionId?: string;
  size?: number | string;
  side?: TPerpSide;
  leverage?: number | string;
  clientOrderId?: string;
  dryRun?: boolean;
};

/** A decimal from the body, or VALIDATION_ERROR naming the field. */
const parseDecimal = (field: string, v: number | string): TDecimal => {
  try {
    const d = dec(typeof v === 'number' ? String(v) : v);
    if (d.isFinite()) return d;
  } catch {
    // refused below
  }
  throw new AppError('VALIDATION_ERROR', `${field} must be a number`, { [field]: v });
};

/** Refuses a clientOrderId the caller already uses on an open order of either kind (lib/markets' limit orders call it too). */
export async function assertClientOrderIdFree(tx: Tx, userId: string, clientOrderId: string | undefined) {
  if (!clientOrderId) return;
  const [hit] = rowsOf<{ id: string }>(
    await tx.execute(sql`
      select id from ${perpOrders} where user_id = ${userId} and client_order_id = ${clientOrderId} and status = 'open'
      union all
      select id from ${predictionOrders} where user_id = ${userId} and client_order_id = ${clientOrderId} and status in ('open', 'partially_filled')
      limit 1`),
  );
  if (hit) throw duplicateClientOrderId(clientOrderId, hit.id);
}

const duplicateClientOrderId = (clientOrderId: string, orderId?: string) =>
  new AppError('DUPLICATE_CLIENT_ORDER_ID', 'You already have an open order with this clientOrderId', { clientOrderId, ...(orderId ? { orderId } : {}) });

/** What an order does when it fires at its trigger price (lib/contracts/orders.ts ZPerpOrderPreview). */
export type TPerpOrderPreview = {
  triggerPrice: number;
  /** Notional it closes (stop, take-profit) or opens (limit). */
  size: number;
  /** Stop or take-profit: the net P&L of closing that size at the trigger, fees included. */
  realizedPnL: number | null;
  /** Limit: the margin it reserves. */
  margin: number | null;
  fee: number;
  /** Limit: the liquidation price of the position it opens. */
  liquidationPrice: number | null;
};

type TPlaced = { row: TPerpOrderRow; newBalance?: string; preview: TPerpOrderPreview; fillsNow: boolean };

/** A stop-loss or take-profit on the caller's open position. */
async function placeStop(tx: Tx, input: TPlacePerpOrderInput, triggerPrice: TDecimal, at: Date): Promise<TPlaced> {
  const { caller } = input;
  if (!input.positionId) throw new AppError('VALIDATION_ERROR', 'positionId is required for stop_loss and take_profit', { type: input.type });
  if (input.leverage !== undefined) throw new AppError('VALIDATION_ERROR', 'leverage is for limit orders only', { type: input.type });
  const [pos] = await tx.select().from(perpPositions).where(eq(perpPositions.id, input.positionId)).for('share');
  if (!pos || pos.userId !== caller.userId) throw new AppError('POSITION_NOT_FOUND', 'Position not found', { positionId: input.positionId });
  if (pos.status !== 'open') {
    throw new AppError('POSITION_CLOSED', pos.status === 'liquidated' ? 'This position was liquidated' : 'This position is already closed', {
      positionId: pos.id,
      status: pos.status,
    });
  }
  if (pos.ticker !== input.ticker) throw new AppError('VALIDATION_ERROR', `The position is on ${pos.ticker}, not ${input.ticker}`, { ticker: input.ticker, positionTicker: pos.ticker });
  if (input.side !== undefined && input.side !== pos.side) throw new AppError('VALIDATION_ERROR', `The position is a ${pos.side}`, { side: input.side });
  const [mkt] = await tx.select({ markPrice: perpMarkets.markPrice, fundingIndex: perpMarkets.fundingIndex }).from(perpMarkets).where(eq(perpMarkets.ticker, pos.ticker));
  const problem = placementProblem({ type: input.type, side: pos.side, triggerPrice }, mkt!.markPrice);
  if (problem) throw new AppError('VALIDATION_ERROR', problem, { triggerPrice: toDecimalString(triggerPrice), markPrice: toDecimalString(mkt!.markPrice) });
  await assertClientOrderIdFree(tx, caller.userId, input.clientOrderId);
  const size = input.size === undefined ? null : parseDecimal('size', input.size).toDecimalPlaces(8);
  const [row] = await tx
    .insert(perpOrders)
    .values({
      userId: caller.userId,
      ticker: pos.ticker,
      type: input.type,
      side: pos.side,
      size: size === null ? null : toDecimalString(size),
      triggerPrice: toDecimalString(triggerPrice),
      firesWhen: firesWhenOf(input.type, pos.side),
      positionId: pos.id,
      status: 'open',
      clientOrderId: input.clientOrderId ?? null,
      apiKeyId: caller.apiKeyId ?? null,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  // What it would do at its price, with the funding accrued so far.
  const funded = withAccruedFunding(pos, mkt!.fundingIndex);
  const q = quoteTriggerClose({ ...pos, collateral: funded.collateral, fundingPaid: funded.fundingPaid }, size, triggerPrice);
  const preview = {
    triggerPrice: toNumber(triggerPrice),
    size: toNumber(q.closeSize),
    realizedPnL: toNumber(q.netPnL),
    margin: null,
    fee: toNumber(q.fee),
    liquidationPrice: null,
  };
  return { row: row!, preview, fillsNow: false };
}

/** A limit order: its margin and opening fee reserved. */
async function placeLimit(tx: Tx, input: TPlacePerpOrderInput, triggerPrice: TDecimal, at: Date): Promise<TPlaced> {
  const { caller } = input;
  if (input.side === undefined || input.size === undefined || input.leverage === undefined) {
    throw new AppError('VALIDATION_ERROR', 'side, size and leverage are required for limit orders', { type: input.type });
  }
  if (input.positionId !== undefined) throw new AppError('VALIDATION_ERROR', 'positionId is for stop_loss and take_profit only', { type: input.type });
  const problem = orderProblem({ size: input.size, leverage: input.leverage });
  if (problem) throw new AppError('VALIDATION_ERROR', problem, { size: input.size, leverage: input.leverage });
  const [mkt] = await tx.select({ markPrice: perpMarkets.markPrice }).from(perpMarkets).where(eq(perpMarkets.ticker, input.ticker));
  if (!mkt) throw new AppError('NOT_FOUND', `Unknown ticker ${input.ticker}`, { ticker: input.ticker });
  await assertClientOrderIdFree(tx, caller.userId, input.clientOrderId);
  const q = quoteLimit({ side: input.side, size: dec(input.size).toDecimalPlaces(8), leverage: input.leverage }, triggerPrice);
  const leverage = dec(input.leverage);
  const firesWhen = firesWhenOf('limit', input.side);
  const [row] = await tx
    .insert(perpOrders)
    .values({
      userId: caller.userId,
      ticker: input.ticker,
      type: input.type,
      side: input.side,
      size: toDecimalString(q.size),
      leverage: toDecimalString(leverage),
      margin: toDecimalString(q.margin),
      reserved: toDecimalString(q.reserve),
      triggerPrice: toDecimalString(triggerPrice),
      firesWhen,
      status: 'open',
      clientOrderId: input.clientOrderId ?? null,
      apiKeyId: caller.apiKeyId ?? null,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  const reserved = await debit(tx, {
    userId: caller.userId,
    amount: q.reserve,
    type: 'perp_order_reserve',
    description: `Reserved for a limit order: ${leverage.toFixed()}x ${input.side} on ${input.ticker} at ${toDecimalString(triggerPrice)}`,
    reference: { type: 'perp_order', id: row!.id },
  });
  const preview = {
    triggerPrice: toNumber(triggerPrice),
    size: toNumber(q.size),
    realizedPnL: null,
    margin: toNumber(q.margin),
    fee: toNumber(q.fee),
    liquidationPrice: toNumber(q.liquidationPrice),
  };
  return { row: row!, newBalance: toDecimalString(reserved.balanceAfter), preview, fillsNow: isTriggered({ firesWhen, triggerPrice }, mkt.markPrice) };
}

/**
 * Places a perp order for the caller (the route's service). Answers `{order, newBalance?}`, or
 * with `dryRun` the same as it would be now plus `preview` and `dryRun: true`, having written
 * nothing (db/dry-run.ts runDryRun: the real placement, rolled back).
 */
export async function placePerpOrder(input: TPlacePerpOrderInput) {
  if (input.dryRun) {
    const { order, newBalance, preview } = await runDryRun(() => placeOrder(input));
    return { order, ...(newBalance ? { newBalance } : {}), preview, dryRun: true as const };
  }
  const { order, newBalance } = await placeOrder(input);
  return { order, ...(newBalance ? { newBalance } : {}) };
}

async function placeOrder(input: TPlacePerpOrderInput) {
  const ticker = input.ticker.trim().toUpperCase();
  const triggerPrice = parseDecimal('triggerPrice', input.triggerPrice).toDecimalPlaces(PRICE_SCALE, D.ROUND_DOWN);
  if (!triggerPrice.gt(0)) throw new AppError('VALIDATION_ERROR', 'triggerPrice must be positive', { triggerPrice: input.triggerPrice });
  const normalized = { ...input, ticker };
  const at = now();
  let placed: TPlaced;
  try {
    placed = await withTransaction(async (tx) => {
      const p = input.type === 'limit' ? await placeLimit(tx, normalized, triggerPrice, at) : await placeStop(tx, normalized, triggerPrice, at);
      await emitOrderUpdate(tx, input.caller.userId, 'placed', perpOrderDto(p.row));
      return p;
    });
  } catch (e) {
    // Two placements with one clientOrderId at once: the partial unique index refuses the second.
    if (postgresErrorCode(e) === '23505' && input.clientOrderId) throw duplicateClientOrderId(input.clientOrderId);
    throw e;
  }
  let row = placed.row;
  if (placed.fillsNow) {
    // The mark already satisfies it: the trigger pass fills it now (then sweeps, as after a trade).
    await liquidateAfterTrade(ticker);
    const [after] = await (await getDb()).select().from(perpOrders).where(eq(perpOrders.id, row.id));
    row = after ?? row;
  }
  return { order: perpOrderDto(row), newBalance: placed.newBalance, preview: placed.preview };
}

/**
 * Cancels the caller's open order `orderId`, refunding exactly what it reserved (a limit order's
 * margin and fee; a stop holds nothing), in `tx`. ORDER_NOT_FOUND for a missing order or someone
 * else's, ORDER_NOT_OPEN when it has filled, fired or been cancelled.
 */
export async function cancelPerpOrder(tx: Tx, o: { userId: string; orderId: string }): Promise<TPerpOrderDto> {
  const [row] = await tx.select().from(perpOrders).where(eq(perpOrders.id, o.orderId)).for('update');
  if (!row || row.userId !== o.userId) throw new AppError('ORDER_NOT_FOUND', 'Order not found', { orderId: o.orderId });
  if (row.status !== 'open') throw new AppError('ORDER_NOT_OPEN', `This order is ${row.status}`, { orderId: row.id, status: row.status });
  const [cancelled] = await cancelRows(tx, [row.id]);
  return perpOrderDto(cancelled!);
}

/**
 * Cancels the caller's open perp orders (on `ticker`, with `clientOrderId`, or all), refunding
 * each one's reserve, in `tx`. Returns the ids cancelled (oldest first).
 */
export async function cancelPerpOrders(tx: Tx, o: { userId: string; ticker?: string; clientOrderId?: string; apiKeyId?: string }): Promise<string[]> {
  const where: SQL[] = [eq(perpOrders.userId, o.userId), eq(perpOrders.status, 'open')];
  if (o.ticker) where.push(eq(perpOrders.ticker, o.ticker.trim().toUpperCase()));
  if (o.clientOrderId) where.push(eq(perpOrders.clientOrderId, o.clientOrderId));
  if (o.apiKeyId) where.push(eq(perpOrders.apiKeyId, o.apiKeyId));
  // Locked in one order (by id), so two cancels of overlapping sets wait instead of deadlocking.
  const locked = await tx.select({ id: perpOrders.id }).from(perpOrders).where(and(...where)).orderBy(asc(perpOrders.id)).for('update');
  if (!locked.length) return [];
  const rows = await cancelRows(tx, locked.map((r) => r.id));
  return rows.sort((a, b) => a.seq - b.seq).map((r) => r.id);
}

/** Cancels open orders the caller has locked: status, refunds, events. */
async function cancelRows(tx: Tx, ids: string[]): Promise<TPerpOrderRow[]> {
  const at = now();
  const rows = await tx
    .update(perpOrders)
    .set({ status: 'cancelled', updatedAt: at })
    .where(and(inArray(perpOrders.id, ids), eq(perpOrders.status, 'open')))
    .returning();
  for (const r of rows) {
    if (dec(r.reserved).gt(0)) {
      await credit(tx, {
        userId: r.userId,
        amount: r.reserved,
        type: 'perp_order_refund',
        description: `Limit order cancelled: its reserve returned (${r.side} on ${r.ticker})`,
        reference: { type: 'perp_order', id: r.id },
      });
    }
  }
  await emitOrderUpdates(tx, rows.map((r) => ({ userId: r.userId, event: 'cancelled' as const, order: perpOrderDto(r) })));
  return rows;
}
