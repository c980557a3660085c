/**
 * Orders in the browser (issue 32): a question's order book, the caller's orders of both kinds,
 * placing a prediction limit order or a perp stop-loss, take-profit or limit order (each with its
 * `dryRun` preview), and cancelling one order or many. queryOptions factories own every query key;
 * the live cache (lib/client/realtime/cache.ts) refetches a book and the caller's orders when the
 * market's or ticker's price moves, since a fill or a trigger moves it. The pure helpers below read
 * the forms' text (a limit price in cents or dollars, a trigger price) and summarise a preview with
 * exact decimals; the loss or gain at a trigger is the server's own close math (lib/perps/math).
 * I/O: the typed client only.
 */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type ApiError } from '@/lib/client/api';
import type { TEndpointInput, TEndpointResponse } from '@/lib/contracts/endpoint';
import { orderCancel, ordersCancelMany, ordersList, perpOrderPlace, predictionOrderBook, predictionOrderPlace } from '@/lib/contracts/orders';
import { dec, type TDecimal, type TDecimalInput } from '@/lib/money/decimal';
import { orderProblem, quoteOpen, type TPerpSide } from '@/lib/perps/math';
import { firesWhenOf, isTriggered, quoteLimit, quoteTriggerClose, type TFundedOpenPosition } from '@/lib/perps/orders';
import { getFieldErrors, type TErrorMessages } from './errors';
import {
  getMarketHoldersQueryOptions,
  getMarketQueryOptions,
  getMarketsQueryOptions,
  getMarketTradesQueryOptions,
  getMyMarketTradesQueryOptions,
  getMyPositionsQueryOptions,
  getPriceHistoryQueryOptions,
  type THistoryRange,
} from './markets';
import { getBalanceQueryOptions, getMeQueryOptions } from './users';

export type TOrderList = TEndpointResponse<typeof ordersList>;
export type TOrder = TOrderList['orders'][number];
export type TPredictionOrder = Extract<TOrder, { kind: 'prediction' }>;
export type TPerpOrder = Extract<TOrder, { kind: 'perp' }>;
export type TOrderBook = TEndpointResponse<typeof predictionOrderBook>['book'];
export type TBookLevel = TOrderBook['YES'][number];
export type TPredictionOrderResult = TEndpointResponse<typeof predictionOrderPlace>;
export type TFill = TPredictionOrderResult['fills'][number];
export type TPerpOrderResult = TEndpointResponse<typeof perpOrderPlace>;
export type TOrderStatus = TOrder['status'];
export type TOrderStatusFilter = TOrderStatus | 'all';
export type TTimeInForce = TPredictionOrder['timeInForce'];
export type TPerpOrderType = TPerpOrder['type'];
export type TBookOutcome = keyof TOrderBook;

/** A prediction order as the form sends it (decimal strings, as typed). */
export type TPlacePredictionOrderInput = {
  outcome: 'YES' | 'NO';
  amount: string;
  limitPrice: string;
  timeInForce: TTimeInForce;
  expiresAt?: string;
};

/** A perp order as the forms send it: a stop or take-profit names its position, a limit order opens one. */
export type TPlacePerpOrderInput =
  | { type: 'stop_loss' | 'take_profit'; positionId: string; triggerPrice: string; size?: string }
  | { type: 'limit'; side: TPerpSide; size: string; leverage: number; triggerPrice: string };

const keys = {
  all: ['orders'] as const,
  books: () => [...keys.all, 'book'] as const,
  book: (marketId: string) => [...keys.books(), marketId] as const,
  mineAll: () => [...keys.all, 'mine'] as const,
  mine: (userId: string, filter: Required<Pick<TMyOrdersFilter, 'status'>> & Omit<TMyOrdersFilter, 'status'>) => [...keys.mineAll(), userId, filter] as const,
  previews: () => [...keys.all, 'preview'] as const,
  predictionPreview: (marketId: string, input: TPlacePredictionOrderInput) => [...keys.previews(), 'prediction', marketId, input] as const,
  perpPreview: (ticker: string, input: TPlacePerpOrderInput) => [...keys.previews(), 'perp', ticker.toUpperCase(), input] as const,
};

/** The orders keys, for the live cache's refetches (a book on its market's events, the caller's orders). */
export const orderKeys = keys;

/** Every history range, so a market's histories are named by their exact keys. */
const HISTORY_RANGES: THistoryRange[] = ['1h', '24h', '7d', '30d', 'all'];

/**
 * Others place orders without moving the price (a resting order sends no price event): the book
 * on screen is read again this often.
 */
export const BOOK_REFETCH_MS = 15_000;

/** How long a form waits after the last keystroke before asking the server for a preview. */
export const PREVIEW_DEBOUNCE_MS = 400;

// ---------------------------------------------------------------------------------------------
// The book

export function getOrderBookQueryOptions(marketId: string) {
  return queryOptions({
    queryKey: keys.book(marketId),
    queryFn: async () => (await api(predictionOrderBook, { params: { id: marketId } })).book,
  });
}

export function useOrderBook(marketId: string) {
  return useQuery({ ...getOrderBookQueryOptions(marketId), refetchInterval: BOOK_REFETCH_MS });
}

export type TDepthRow = TBookLevel & { cents: number; cumulative: string; share: number };

/**
 * A side of the book for drawing: each level with its running total (best price first) and its
 * depth bar as a share of the larger side's total, so both sides are drawn to one scale.
 * Exact sums; the share is a plotting number only.
 */
export function toDepthRows(book: TOrderBook): Record<TBookOutcome, TDepthRow[]> {
  const totals = { YES: dec(0), NO: dec(0) };
  const run = (levels: TBookLevel[], side: TBookOutcome) =>
    levels.map((l) => {
      totals[side] = totals[side].plus(l.amount);
      return { ...l, cents: dec(l.price).times(100).toNumber(), cumulative: totals[side].toFixed() };
    });
  const yes = run(book.YES, 'YES');
  const no = run(book.NO, 'NO');
  const scale = totals.YES.gt(totals.NO) ? totals.YES : totals.NO;
  const withShare = (rows: Omit<TDepthRow, 'share'>[]) => rows.map((r) => ({ ...r, share: scale.isZero() ? 0 : dec(r.cumulative).div(scale).toNumber() }));
  return { YES: withShare(yes), NO: withShare(no) };
}

// ---------------------------------------------------------------------------------------------
// The caller's orders

export type TMyOrdersFilter = { status?: TOrderStatusFilter; marketId?: string; ticker?: string };

/** One page of the newest orders; a player rarely has more open at once. */
export const MY_ORDERS_LIMIT = 100;

/** The caller's orders (the session's user; `userId` is only part of the key), newest first. */
export function getMyOrdersQueryOptions(userId: string, f: TMyOrdersFilter = {}) {
  const filter = { status: f.status ?? 'open', marketId: f.marketId || undefined, ticker: f.ticker?.toUpperCase() || undefined };
  return queryOptions({
    queryKey: keys.mine(userId, filter),
    queryFn: () => api(ordersList, { query: { ...filter, limit: MY_ORDERS_LIMIT } }),
  });
}

/** The caller's orders; `isLive` refetches every few seconds (a stop can fire between price events on screen). */
export function useMyOrders(userId: string | undefined, f: TMyOrdersFilter = {}, { isLive = false }: { isLive?: boolean } = {}) {
  return useQuery({ ...getMyOrdersQueryOptions(userId ?? '', f), enabled: !!userId, refetchInterval: isLive ? 5_000 : undefined });
}

/** What of a prediction order has not filled (what a cancel refunds), exactly. */
export function unfilledAmount(o: Pick<TPredictionOrder, 'amount' | 'filledAmount'>) {
  const rest = dec(o.amount).minus(o.filledAmount);
  return (rest.isNegative() ? dec(0) : rest).toFixed();
}

/** Whether an order can still fill (and so be cancelled). */
export function isOpenOrder(o: Pick<TOrder, 'status'>) {
  return o.status === 'open' || o.status === 'partially_filled';
}

// ---------------------------------------------------------------------------------------------
// Placing and cancelling

/** What a prediction order changes: the book, the caller's orders, and when it filled, everything a trade changes. */
const useInvalidateAfterPredictionOrder = () => {
  const qc = useQueryClient();
  return (marketId: string, userId: string | undefined) =>
    Promise.all([
      qc.invalidateQueries({ queryKey: keys.book(marketId) }),
      qc.invalidateQueries({ queryKey: keys.mineAll() }),
      qc.invalidateQueries({ queryKey: getMarketQueryOptions(marketId).queryKey }),
      qc.invalidateQueries({ queryKey: getMarketsQueryOptions('active').queryKey }),
      ...HISTORY_RANGES.map((r) => qc.invalidateQueries({ queryKey: getPriceHistoryQueryOptions(marketId, r).queryKey })),
      qc.invalidateQueries({ queryKey: getMarketTradesQueryOptions(marketId).queryKey }),
      qc.invalidateQueries({ queryKey: getMarketHoldersQueryOptions(marketId).queryKey }),
      qc.invalidateQueries({ queryKey: getMeQueryOptions().queryKey }),
      ...(userId
        ? [
            qc.invalidateQueries({ queryKey: getMyMarketTradesQueryOptions(marketId, userId).queryKey }),
            qc.invalidateQueries({ queryKey: getMyPositionsQueryOptions(userId).queryKey }),
            qc.invalidateQueries({ queryKey: getBalanceQueryOptions(userId).queryKey }),
          ]
        : []),
    ]);
};

/** What a perp order changes: the caller's orders and, for a limit order's margin, the balance. */
const useInvalidateAfterPerpOrder = () => {
  const qc = useQueryClient();
  return (userId: string | undefined) =>
    Promise.all([
      qc.invalidateQueries({ queryKey: keys.mineAll() }),
      qc.invalidateQueries({ queryKey: getMeQueryOptions().queryKey }),
      ...(userId ? [qc.invalidateQueries({ queryKey: getBalanceQueryOptions(userId).queryKey })] : []),
    ]);
};

type TPredictionBody = NonNullable<TEndpointInput<typeof predictionOrderPlace>['body']>;
type TPerpBody = NonNullable<TEndpointInput<typeof perpOrderPlace>['body']>;

const predictionBody = (input: TPlacePredictionOrderInput, dryRun?: true): TPredictionBody => ({
  outcome: input.outcome,
  amount: input.amount,
  limitPrice: input.limitPrice,
  timeInForce: input.timeInForce,
  ...(input.timeInForce === 'GTD' && input.expiresAt ? { expiresAt: input.expiresAt } : {}),
  ...(dryRun ? { dryRun } : {}),
});

const perpBody = (ticker: string, input: TPlacePerpOrderInput, dryRun?: true): TPerpBody => ({
  ticker,
  ...input,
  ...(dryRun ? { dryRun } : {}),
});

/**
 * What placing `input` would do now (the server's dryRun: fills against the market maker and
 * resting orders, what would rest), or nothing while `input` is null. Errors are the answer too:
 * the form shows them where they belong.
 */
export function usePredictionOrderPreview(marketId: string, input: TPlacePredictionOrderInput | null) {
  return useQuery({
    queryKey: input ? keys.predictionPreview(marketId, input) : [...keys.previews(), 'prediction', marketId, null],
    queryFn: () => api(predictionOrderPlace, { params: { id: marketId }, body: predictionBody(input!, true) }),
    enabled: !!input,
    retry: false,
    staleTime: 5_000,
    placeholderData: keepPreviousData,
  });
}

export function usePlacePredictionOrder(marketId: string, userId: string | undefined) {
  const invalidate = useInvalidateAfterPredictionOrder();
  return useMutation({
    mutationFn: (input: TPlacePredictionOrderInput) => api(predictionOrderPlace, { params: { id: marketId }, body: predictionBody(input) }),
    onSettled: () => invalidate(marketId, userId),
  });
}

/** The server's dryRun of a perp order (what it would reserve, whether it is accepted), or nothing while `input` is null. */
export function usePerpOrderPreview(ticker: string, input: TPlacePerpOrderInput | null) {
  return useQuery({
    queryKey: input ? keys.perpPreview(ticker, input) : [...keys.previews(), 'perp', ticker.toUpperCase(), null],
    queryFn: () => api(perpOrderPlace, { body: perpBody(ticker, input!, true) }),
    enabled: !!input,
    retry: false,
    staleTime: 5_000,
    placeholderData: keepPreviousData,
  });
}

export function usePlacePerpOrder(ticker: string, userId: string | undefined) {
  const invalidate = useInvalidateAfterPerpOrder();
  return useMutation({
    mutationFn: (input: TPlacePerpOrderInput) => api(perpOrderPlace, { body: perpBody(ticker, input) }),
    onSettled: () => invalidate(userId),
  });
}

/** Cancels one open order; its unfilled reserve comes back. */
export function useCancelOrder(userId: string | undefined) {
  const invalidatePrediction = useInvalidateAfterPredictionOrder();
  const invalidatePerp = useInvalidateAfterPerpOrder();
  return useMutation({
    mutationFn: (order: TOrder) => api(orderCancel, { params: { orderId: order.id } }),
    onSettled: (_data, _error, order) => (order.kind === 'prediction' ? invalidatePrediction(order.marketId, userId) : invalidatePerp(userId)),
  });
}

/**
 * Cancels the caller's open orders on a question, on a ticker, or all of them (an empty scope);
 * answers the ids cancelled.
 */
export function useCancelOrders(userId: string | undefined) {
  const qc = useQueryClient();
  const invalidatePrediction = useInvalidateAfterPredictionOrder();
  const invalidatePerp = useInvalidateAfterPerpOrder();
  return useMutation({
    mutationFn: (scope: { marketId?: string; ticker?: string }) => api(ordersCancelMany, { body: scope }),
    onSettled: (_data, _error, scope) =>
      Promise.all([
        invalidatePerp(userId),
        scope.marketId ? invalidatePrediction(scope.marketId, userId) : qc.invalidateQueries({ queryKey: keys.books() }),
      ]),
  });
}

// ---------------------------------------------------------------------------------------------
// Errors

const detailMoney = (e: ApiError, key: string) => {
  const v = e.details?.[key];
  return typeof v === 'number' || (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)) ? `$${dec(v).toFixed(2)}` : null;
};

/** The sentences a failed order, preview or cancel shows: describeError(error, ORDER_ERROR_MESSAGES). */
export const ORDER_ERROR_MESSAGES: TErrorMessages = {
  INVALID_LIMIT_PRICE: 'The limit price must be from 1¢ to 99¢ (0.01 to 0.99), in steps of at most 0.01¢.',
  INSUFFICIENT_BALANCE: (e) => {
    const required = detailMoney(e, 'required');
    const available = detailMoney(e, 'available');
    return required && available
      ? `You don't have enough balance: this order needs ${required} and you have ${available}.`
      : "You don't have enough balance for this order.";
  },
  INVALID_TRADE_SIZE: 'The amount must be from $1 to $1,000,000,000.',
  MARKET_CLOSED: 'This market is closed: it takes no more orders.',
  MARKET_NOT_FOUND: 'We could not find this market. Reload the page and try again.',
  DUPLICATE_CLIENT_ORDER_ID: 'You already have an open order with this id.',
  ORDER_NOT_FOUND: 'We could not find this order. It may be gone already: reload the page.',
  ORDER_NOT_OPEN: 'This order is no longer open: it filled, expired or was cancelled.',
  POSITION_NOT_FOUND: 'We could not find this position. Reload the page and try again.',
  POSITION_CLOSED: 'This position is already closed (or was liquidated).',
  NOT_FOUND: 'Orders are not available right now. Reload the page and try again.',
  RATE_LIMIT_EXCEEDED: 'You are placing orders very fast. Wait a moment and try again.',
  VALIDATION_ERROR: (e) => {
    const fields = getFieldErrors(e);
    const [field, message] = Object.entries(fields)[0] ?? [];
    if (field && message) return `Check the ${FIELD_WORDS[field] ?? field}: ${message}.`;
    // A service's own refusal (a stop on the wrong side of the mark) names its rule: show it.
    return e.message && !/^validation/i.test(e.message) ? `${e.message.charAt(0).toUpperCase()}${e.message.slice(1).replace(/\.?$/, '.')}` : 'Check the order and try again.';
  },
};

const FIELD_WORDS: Record<string, string> = {
  amount: 'amount',
  limitPrice: 'limit price',
  expiresAt: 'expiry',
  triggerPrice: 'price',
  size: 'size',
  leverage: 'leverage',
  side: 'side',
  positionId: 'position',
};

export type TOrderField = 'amount' | 'limitPrice' | 'expiresAt' | 'triggerPrice' | 'size' | 'leverage';

/** Which form field an order error is about (it is shown under that field), or null for the whole form. */
export function orderErrorField(e: unknown): TOrderField | null {
  const code = (e as Partial<ApiError> | null)?.code;
  if (code === 'INVALID_LIMIT_PRICE') return 'limitPrice';
  if (code === 'INVALID_TRADE_SIZE' || code === 'INSUFFICIENT_BALANCE') return 'amount';
  if (code === 'VALIDATION_ERROR') {
    // The zod issue's field, else the field a service's refusal names in its details.
    const known: TOrderField[] = ['amount', 'limitPrice', 'expiresAt', 'triggerPrice', 'size', 'leverage'];
    const fields = [...Object.keys(getFieldErrors(e)), ...Object.keys((e as ApiError).details ?? {})];
    return known.find((k) => k === fields[0]) ?? null;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Reading the forms (pure)

const NUMBER_TEXT = /^\d*(\.\d*)?$/;

const readNumber = (text: string): TDecimal | null => {
  const t = text.trim();
  if (t === '' || t === '.' || !NUMBER_TEXT.test(t)) return null;
  return dec(t);
};

export type TParsed = { state: 'empty' } | { state: 'invalid'; reason: string } | { state: 'ok'; value: string };

/**
 * A limit price as typed: cents from 1 to 99 ("45", "45.5", "45¢") or a decimal of a dollar from
 * 0.01 to 0.99 ("0.45", ".45"). Anything below 1 is read as dollars, 1 and above as cents. The
 * answer is the price in dollars as a decimal string, at most 4 decimal places (the contract's rule).
 */
export function parseLimitPrice(text: string): TParsed {
  const t = text.trim().replace(/\s*(¢|c)$/i, '');
  if (t === '') return { state: 'empty' };
  const v = readNumber(t);
  const outOfRange = { state: 'invalid', reason: 'Enter a price from 1 to 99 cents, like 45, or a decimal like 0.45.' } as const;
  if (!v || v.isZero()) return outOfRange;
  const dollars = v.lt(1) ? v : v.div(100);
  if (dollars.lt('0.01') || dollars.gt('0.99')) return outOfRange;
  if (!dollars.equals(dollars.toDecimalPlaces(4))) return { state: 'invalid', reason: 'Use at most two decimals of a cent, like 45.25.' };
  return { state: 'ok', value: dollars.toFixed() };
}

/** An order amount in currency: at least $1, and within the balance when it is known. */
export function parseOrderAmount(text: string, balance?: string): TParsed {
  if (text.trim() === '') return { state: 'empty' };
  const v = readNumber(text);
  if (!v) return { state: 'invalid', reason: 'Enter a number, like 25 or 12.5.' };
  if (v.lt(1)) return { state: 'invalid', reason: 'The minimum order is $1.' };
  if (v.gt(1e9)) return { state: 'invalid', reason: 'The maximum order is $1,000,000,000.' };
  if (balance !== undefined && v.gt(balance)) return { state: 'invalid', reason: "You don't have enough balance for this order." };
  return { state: 'ok', value: v.toFixed() };
}

/** A price above zero (a perp trigger or limit price). */
export function parsePrice(text: string): TParsed {
  if (text.trim() === '') return { state: 'empty' };
  const v = readNumber(text.replace(/^\s*\$/, ''));
  if (!v || v.isZero()) return { state: 'invalid', reason: 'Enter a price above 0, like 142.5.' };
  return { state: 'ok', value: v.toFixed() };
}

/**
 * A good-till-date expiry from a `datetime-local` value (the reader's local time) as ISO 8601, or
 * why not. Only the form's sense check: the server compares it with game time.
 */
export function parseExpiry(localValue: string, nowMs: number): TParsed {
  if (localValue.trim() === '') return { state: 'invalid', reason: 'Pick the date and time the order expires.' };
  const ms = Date.parse(localValue);
  if (Number.isNaN(ms)) return { state: 'invalid', reason: 'Pick a valid date and time.' };
  if (ms <= nowMs) return { state: 'invalid', reason: 'Pick a time in the future.' };
  return { state: 'ok', value: new Date(ms).toISOString() };
}

// ---------------------------------------------------------------------------------------------
// Previews (pure)

export type TFillSummary = {
  /** Shares bought at once, and what they cost. */
  sharesNow: string;
  spentNow: string;
  /** Average price per share of what fills at once; null when nothing does. */
  avgPrice: string | null;
  /** Currency that rests in the book at the limit (0 for IOC, whose rest is cancelled). */
  resting: string;
  /** An IOC order's unfilled rest, given back at once. */
  cancelledRest: string;
  /** The shares the resting amount buys if it all fills at the limit. */
  restingShares: string;
};

/** What an order's answer (a dryRun or a real one) says happens: filled now, rests, or cancelled. */
export function summarizeFills(result: Pick<TPredictionOrderResult, 'order' | 'fills'>): TFillSummary {
  const shares = result.fills.reduce((acc, f) => acc.plus(f.shares), dec(0));
  const spent = result.fills.reduce((acc, f) => acc.plus(f.amount), dec(0));
  const unfilled = dec(result.order.amount).minus(spent);
  const rest = unfilled.isNegative() ? dec(0) : unfilled;
  const isCancelled = result.order.status === 'cancelled' || result.order.timeInForce === 'IOC';
  const resting = isCancelled ? dec(0) : rest;
  return {
    sharesNow: shares.toFixed(),
    spentNow: spent.toFixed(),
    avgPrice: shares.isZero() ? null : spent.div(shares).toFixed(),
    resting: resting.toFixed(),
    cancelledRest: isCancelled ? rest.toFixed() : '0',
    restingShares: resting.div(result.order.limitPrice).toFixed(),
  };
}

export type TTriggerPreview =
  | { state: 'empty' }
  | { state: 'invalid'; reason: string }
  | {
      state: 'ready';
      triggerPrice: string;
      /** Price P&L at the trigger less the closing fee: what this order locks in (funding and the opening fee aside). */
      pnl: string;
      fee: string;
      /** Where it closes: the mark that fires it (a stop executes without impact). */
      exitPrice: string;
      /** What closing there pays back (collateral + P&L − fee, never below 0). */
      receive: string;
      /** A stop beyond the liquidation price: the position is liquidated before it fires. */
      isPastLiquidation: boolean;
    };

/** A position as the trigger math reads it (an open TPerpPosition is one). */
export type TTriggerPosition = TFundedOpenPosition & { liquidationPrice: TDecimalInput };

const TYPE_WORDS = { stop_loss: 'A stop-loss', take_profit: 'A take-profit' } as const;

/**
 * Where a stop-loss or take-profit at `text` closes the whole of `position` and the loss or gain
 * it takes there, by the server's own trigger math (lib/perps/orders quoteTriggerClose: at the
 * mark that fires it, without impact). It must sit where the mark has not reached it yet (a long's
 * stop below the mark, its take-profit above; a short's the reverse), as the server requires.
 */
export function previewTrigger({
  position,
  type,
  text,
  markPrice,
  reference = 'mark price',
}: {
  position: TTriggerPosition;
  type: 'stop_loss' | 'take_profit';
  text: string;
  markPrice: TDecimalInput;
  /** What `markPrice` is, for the refusal's sentence (a bracket on an order not yet open compares with its entry price). */
  reference?: string;
}): TTriggerPreview {
  const parsed = parsePrice(text);
  if (parsed.state !== 'ok') return parsed;
  const price = dec(parsed.value);
  const firesWhen = firesWhenOf(type, position.side);
  if (isTriggered({ firesWhen, triggerPrice: price }, markPrice)) {
    return {
      state: 'invalid',
      reason: `${TYPE_WORDS[type]} on a ${position.side} must be ${firesWhen} the ${reference} ($${dec(markPrice).toFixed(2)}), or it would fire at once.`,
    };
  }
  const q = quoteTriggerClose(position, null, price);
  const liq = dec(position.liquidationPrice);
  // Past it: the liquidation price is reached first on the way to the stop.
  const isPastLiquidation = type === 'stop_loss' && liq.gt(0) && isTriggered({ firesWhen, triggerPrice: liq }, price);
  return {
    state: 'ready',
    triggerPrice: price.toFixed(),
    pnl: q.realizedPnL.minus(q.fee).toFixed(),
    fee: q.fee.toFixed(),
    exitPrice: q.exitPrice.toFixed(),
    receive: q.total.toFixed(),
    isPastLiquidation,
  };
}

export type TPerpLimitPreview =
  | { state: 'empty' }
  | { state: 'invalid'; reason: string }
  | { state: 'ready'; size: string; margin: string; fee: string; reserve: string; entryPrice: string; liquidationPrice: string };

/**
 * What a perp limit order reserves and the position it opens, by the server's math (quoteLimit:
 * margin plus opening fee reserved now; it opens at its price, without impact).
 */
export function previewPerpLimit({
  side,
  sizeText,
  leverage,
  price,
  balance,
}: {
  side: TPerpSide;
  sizeText: string;
  leverage: number;
  price: string;
  balance?: string;
}): TPerpLimitPreview {
  const size = sizeText.trim();
  if (size === '') return { state: 'empty' };
  if (!NUMBER_TEXT.test(size) || size === '.') return { state: 'invalid', reason: 'Enter a number, like 100 or 250.5.' };
  const problem = orderProblem({ size, leverage });
  if (problem) return { state: 'invalid', reason: `${problem.charAt(0).toUpperCase()}${problem.slice(1)}.` };
  const q = quoteLimit({ side, size: dec(size).toDecimalPlaces(8), leverage }, price);
  if (balance !== undefined && q.reserve.gt(balance)) {
    return { state: 'invalid', reason: `You don't have enough balance: this order reserves $${q.reserve.toFixed(2)} for margin and fee.` };
  }
  return {
    state: 'ready',
    size: q.size.toFixed(),
    margin: q.margin.toFixed(),
    fee: q.fee.toFixed(),
    reserve: q.reserve.toFixed(),
    entryPrice: q.entryPrice.toFixed(),
    liquidationPrice: q.liquidationPrice.toFixed(),
  };
}

/**
 * A limit order's price against the mark: a long limit at or above the mark (a short at or below)
 * is already reached and opens at the next price check. A note for the form, not a refusal.
 */
export function isLimitReached(side: TPerpSide, limitPrice: string, markPrice: number) {
  return side === 'long' ? dec(limitPrice).gte(markPrice) : dec(limitPrice).lte(markPrice);
}

/** A price as the limit box shows it, in cents within 1 to 99 ("52.34" from 0.52341): the "current price" pick. */
export function toCentsText(price: number) {
  const c = dec(price).times(100).toDecimalPlaces(2);
  return (c.lt(1) ? dec(1) : c.gt(99) ? dec(99) : c).toFixed();
}

export type TBracketText = { stopLoss: string; takeProfit: string };
export const NO_BRACKETS: TBracketText = { stopLoss: '', takeProfit: '' };

/**
 * The stop-loss and take-profit typed on the open form, against the position that form would
 * open (quoteOpen at the mark: its entry price, units and margin), so the loss or gain at each
 * trigger is known before the position exists. `isValid` is false while either is refused.
 */
export function previewBrackets({
  side,
  sizeText,
  leverage,
  markPrice,
  depth,
  brackets,
}: {
  side: TPerpSide;
  sizeText: string;
  leverage: number;
  markPrice: number;
  depth: number;
  brackets: TBracketText;
}): { stopLoss: TTriggerPreview; takeProfit: TTriggerPreview; isValid: boolean } {
  const size = sizeText.trim();
  const isSized = size !== '' && NUMBER_TEXT.test(size) && size !== '.' && orderProblem({ size, leverage }) === null;
  const one = (type: 'stop_loss' | 'take_profit', text: string): TTriggerPreview => {
    if (text.trim() === '') return { state: 'empty' };
    if (!isSized) return { state: 'invalid', reason: 'Enter a valid size first: the loss or gain depends on it.' };
    const q = quoteOpen({ side, size, leverage, markPrice, depth });
    const position = { side, size: q.size, units: q.units, entryPrice: q.entryPrice, margin: q.margin, collateral: q.margin, openFee: q.fee, fundingPaid: 0, liquidationPrice: q.liquidationPrice };
    // The open moves the mark to its entry price: that is the mark the new stops are placed against.
    return previewTrigger({ position, type, text, markPrice: q.markAfter, reference: 'entry price' });
  };
  const stopLoss = one('stop_loss', brackets.stopLoss);
  const takeProfit = one('take_profit', brackets.takeProfit);
  return { stopLoss, takeProfit, isValid: stopLoss.state !== 'invalid' && takeProfit.state !== 'invalid' };
}
