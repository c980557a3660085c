/**
 * Placing a limit order on a question (POST /api/markets/predictions/{id}/orders), one transaction
 * under the market lock: it fills at once what it can at or better than its limit (resting orders
 * of the other outcome, then or between them the market maker, match.ts), then rests with the rest
 * reserved (GTC, GTD) or gives it back (IOC). The filled part is a `pred_buy` ledger row, the
 * reservation an `order_reserve` row: the balance drops by the whole amount at most, never more.
 */
import 'server-only';
import { sql } from 'drizzle-orm';
import { rowsOf, withTransaction, type Tx } from '@/db/client';
import { runDryRun } from '@/db/dry-run';
import { markets, predictionOrders, users } from '@/db/schema';
import { assertClientOrderIdFree } from '@/lib/perps/service/orders';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { emitOrderBookChanged, emitOrderUpdate } from '@/lib/events/order-updates';
import { dec, toDecimalString, toNumber, type TDecimal } from '@/lib/money/decimal';
import { toPool, type TOutcome } from '../cpmm';
import { parseBuyAmount } from '../service/buy-shares';
import { assertTradable, lockMarket } from '../service/shared';
import { matchWithBook, predictionOrderDto, settleMatch, settleTakerBuy } from './engine';
import { canStillFill, isValidLimitPrice, matchBuy, type TMatch } from './match';

export type TPlaceOrderInput = {
  caller: TCaller;
  marketId: string;
  outcome: TOutcome;
  amount: number | string;
  limitPrice: number | string;
  timeInForce?: 'GTC' | 'GTD' | 'IOC';
  expiresAt?: string;
  clientOrderId?: string;
};

/** A limit price as an exact decimal, or INVALID_LIMIT_PRICE. */
export function parseLimitPrice(v: number | string): TDecimal {
  let p: TDecimal;
  try {
    p = dec(typeof v === 'number' ? String(v) : v);
  } catch {
    throw new AppError('INVALID_LIMIT_PRICE', 'The limit price must be a number from 0.01 to 0.99', { limitPrice: v });
  }
  if (!isValidLimitPrice(p)) {
    throw new AppError('INVALID_LIMIT_PRICE', 'The limit price must be from 0.01 to 0.99, with at most 4 decimal places', { limitPrice: v });
  }
  return p;
}

/** The question row locked, or MARKET_NOT_FOUND / MARKET_CLOSED. */
async function lockOpenMarket(tx: Tx, marketId: string) {
  let market;
  try {
    market = await lockMarket(tx, marketId);
  } catch (e) {
    if (e instanceof AppError && e.code === 'NOT_FOUND') throw new AppError('MARKET_NOT_FOUND', 'Market not found', { marketId });
    throw e;
  }
  assertTradable(market);
  return market;
}

/** The fills as the API answers them (the taker's side). */
export function fillsDto(m: TMatch) {
  return m.fills.map((f) => ({
    price: toNumber(f.price),
    shares: toNumber(f.shares),
    amount: toNumber(f.amount),
    counterparty: f.counterparty,
  }));
}

export async function placePredictionOrder(input: TPlaceOrderInput) {
  const { caller, outcome } = input;
  const amount = parseBuyAmount(input.amount);
  const limit = parseLimitPrice(input.limitPrice);
  const tif = input.timeInForce ?? 'GTC';
  const at = now();
  let expiresAt: Date | null = null;
  if (tif === 'GTD') {
    expiresAt = new Date(input.expiresAt ?? '');
    if (Number.isNaN(expiresAt.getTime())) throw new AppError('VALIDATION_ERROR', 'expiresAt must be an ISO 8601 time', { expiresAt: input.expiresAt });
    if (expiresAt.getTime() <= at.getTime()) throw new AppError('VALIDATION_ERROR', 'expiresAt must be in the future (game time)', { expiresAt: input.expiresAt, now: at.toISOString() });
  }

  return withTransaction(async (tx) => {
    const market = await lockOpenMarket(tx, input.marketId);
    if (expiresAt && expiresAt.getTime() > market.resolutionDate.getTime()) expiresAt = new Date(market.resolutionDate);
    await assertClientOrderIdFree(tx, caller.userId, input.clientOrderId);
    const opposite: TOutcome = outcome === 'YES' ? 'NO' : 'YES';
    const { match } = await matchWithBook(tx, { marketId: market.id, outcome: opposite, at, minPrice: dec(1).minus(limit) }, (book) =>
      matchBuy({ pool: toPool(market), outcome, amount, limit, takerId: caller.userId, book }),
    );
    const rest = amount.minus(match.used);
    const rests = tif !== 'IOC' && canStillFill({ limitPrice: limit, remaining: rest });
    // Resting: open or partly filled. Not resting: an IOC's unfilled rest is cancelled; an order
    // whose rest buys less than a tick is filled (the dust was never taken).
    const status = rests ? (match.used.gt(0) ? 'partially_filled' : 'open') : canStillFill({ limitPrice: limit, remaining: rest }) ? 'cancelled' : 'filled';
    const orderId = crypto.randomUUID();

    const settled = await settleMatch(tx, { market, match, volume: match.used.plus(match.fills.reduce((s, f) => (f.counterparty === 'order' ? s.plus(f.orderAmount) : s), dec(0))), at, text: market.text });

    // The taker's side: its order, position, trade and money.
    const [order] = await tx
      .insert(predictionOrders)
      .values({
        id: orderId,
        userId: caller.userId,
        marketId: market.id,
        outcome,
        limitPrice: toDecimalString(limit),
        amount: toDecimalString(amount),
        filledAmount: toDecimalString(match.used),
        shares: toDecimalString(match.got),
        status,
        timeInForce: tif,
        expiresAt,
        clientOrderId: input.clientOrderId ?? null,
        apiKeyId: caller.apiKeyId ?? null,
        createdAt: at,
        updatedAt: at,
        closedAt: rests ? null : at,
      })
      .returning();
    if (rests) {
      await tx
        .update(markets)
        .set(outcome === 'YES' ? { openYesOrders: sql`${markets.openYesOrders} + 1` } : { openNoOrders: sql`${markets.openNoOrders} + 1` })
        .where(sql`${markets.id} = ${market.id}`);
    }
    const { balanceAfter } = await settleTakerBuy(tx, {
      caller,
      marketId: market.id,
      outcome,
      match,
      settled,
      at,
      orderId,
      description: `Bought ${outcome} with a limit order in "${market.text}"`,
      extra: rests
        ? { userId: caller.userId, amount: rest.negated(), type: 'order_reserve', description: `Reserved for a limit order: ${outcome} at ${limit.toFixed()} in "${market.text}"`, reference: { type: 'prediction_order', id: orderId } }
        : undefined,
    });
    const dto = predictionOrderDto(order!);
    await emitOrderUpdate(tx, caller.userId, status === 'open' ? 'placed' : status === 'cancelled' ? 'cancelled' : status === 'filled' ? 'filled' : 'partially_filled', dto);
    if (rests && !settled.orderFills.length) await emitOrderBookChanged(tx, market.id);
    const newBalance = balanceAfter ?? (await balanceOf(tx, caller.userId));
    return { order: dto, fills: fillsDto(match), newBalance: toDecimalString(newBalance) };
  });
}

async function balanceOf(tx: Tx, userId: string) {
  const [r] = rowsOf<{ b: string }>(await tx.execute(sql`select virtual_balance as b from ${users} where id = ${userId}`));
  return dec(r?.b ?? 0);
}

/** The route's call: places the order, or with `dryRun` answers what placing it would do now and writes nothing. */
export async function placeOrPreviewPredictionOrder(input: TPlaceOrderInput & { dryRun?: boolean }) {
  const { dryRun, ...rest } = input;
  if (!dryRun) return placePredictionOrder(rest);
  return { ...(await runDryRun(() => placePredictionOrder(rest))), dryRun: true as const };
}
