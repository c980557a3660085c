/**
 * Orders (issue 32, ../shared/CONTRACT.md "Orders"): limit orders on prediction markets, stop-loss,
 * take-profit and limit orders on perps, the book, the caller's orders and their cancels. The
 * services are lib/markets (prediction orders: the matching engine beside the buy), lib/perps (perp
 * orders: triggers beside the mark) and lib/orders (what spans both kinds: the list and the cancels).
 */
import { z } from 'zod';
import { ZIdParam, ZSuccess, ZTimestamp, zAmountInput, zCaseEnum, zQueryInt } from './common';
import { defineEndpoint } from './endpoint';
import { amountClaim, perpOrderClaim } from '@/lib/api-keys/limits';

/** At most 1,000,000,000 of currency an order, as a buy. */
const ZOrderAmount = zAmountInput({ min: 1, max: 1e9, description: 'currency to spend at most (1 to 1,000,000,000)' });
/** 0.01 to 0.99; finer than 4 decimal places is refused by the service (INVALID_LIMIT_PRICE). */
const ZLimitPrice = zAmountInput({ min: 0.01, max: 0.99, description: 'price per share, 0.01 to 0.99, at most 4 decimal places' });
const ZClientOrderId = z.string().min(1).max(64).describe('your own id for the order, unique among your open orders');
const ZDryRun = z.boolean().optional().describe('true: answer what the call would do now and change nothing');

export const ZOrderStatus = z.enum(['open', 'partially_filled', 'filled', 'cancelled', 'expired', 'triggered']);

export const ZPredictionOrder = z.object({
  id: z.string(),
  kind: z.literal('prediction'),
  marketId: z.string(),
  outcome: z.enum(['YES', 'NO']),
  limitPrice: z.number(),
  amount: z.number(),
  filledAmount: z.number(),
  shares: z.number(),
  status: ZOrderStatus,
  timeInForce: z.enum(['GTC', 'GTD', 'IOC']),
  expiresAt: ZTimestamp.nullable(),
  clientOrderId: z.string().nullable(),
  createdAt: ZTimestamp,
});

export const ZPerpOrder = z.object({
  id: z.string(),
  kind: z.literal('perp'),
  ticker: z.string(),
  type: z.enum(['stop_loss', 'take_profit', 'limit']),
  side: z.enum(['long', 'short']),
  size: z.number().nullable().describe('notional; null on a stop or take-profit for the whole position'),
  leverage: z.number().nullable(),
  triggerPrice: z.number(),
  positionId: z.string().nullable(),
  status: ZOrderStatus,
  clientOrderId: z.string().nullable(),
  createdAt: ZTimestamp,
  triggeredAt: ZTimestamp.nullable(),
});

export const ZOrder = z.discriminatedUnion('kind', [ZPredictionOrder, ZPerpOrder]);

export const ZFill = z.object({
  price: z.number().describe('per share, fee included for the market maker'),
  shares: z.number(),
  amount: z.number().describe('what the order spent on this fill'),
  counterparty: z.enum(['maker', 'order']),
});

const ZMarketIdParams = z.object({ id: ZIdParam });

/** The fields of a limit order (the REST body; A2A and MCP add the question's `marketId`). */
export const ZPlacePredictionFields = {
  outcome: zCaseEnum(['YES', 'NO'], 'upper'),
  amount: ZOrderAmount,
  limitPrice: ZLimitPrice,
  timeInForce: zCaseEnum(['GTC', 'GTD', 'IOC'], 'upper').optional(),
  expiresAt: z.iso.datetime({ offset: true }).optional().describe('ISO 8601, game time; required for GTD'),
  clientOrderId: ZClientOrderId.optional(),
  dryRun: ZDryRun,
};

/** expiresAt goes with GTD, and only with it. */
export const GTD_RULE: [(b: { timeInForce?: string; expiresAt?: string }) => boolean, { message: string; path: PropertyKey[] }] = [
  (b) => (b.timeInForce === 'GTD') === (b.expiresAt !== undefined),
  { message: 'expiresAt is required for GTD orders and allowed only with them', path: ['expiresAt'] },
];

export const predictionOrderPlace = defineEndpoint({
  id: 'orders.placePrediction',
  method: 'POST',
  path: '/api/markets/predictions/{id}/orders',
  idempotent: true,
  status: 201,
  summary: 'Place a limit order: buy an outcome for up to `amount` at no more than `limitPrice` a share; what does not fill at once rests (GTC, GTD) or is cancelled (IOC)',
  tag: 'orders',
  auth: 'user',
  requires: ['trade'],
  rateLimit: 'predictionsTrade',
  params: ZMarketIdParams,
  fieldErrors: { amount: 'INVALID_TRADE_SIZE', limitPrice: 'INVALID_LIMIT_PRICE' },
  keyCaps: amountClaim,
  body: z.strictObject(ZPlacePredictionFields).refine(...GTD_RULE),
  response: z.object({
    success: ZSuccess,
    order: ZPredictionOrder,
    fills: z.array(ZFill),
    newBalance: z.string().describe('the balance after the reservation and the fills'),
    dryRun: z.literal(true).optional(),
  }),
  errors: ['VALIDATION_ERROR', 'INVALID_LIMIT_PRICE', 'INVALID_TRADE_SIZE', 'INSUFFICIENT_BALANCE', 'MARKET_NOT_FOUND', 'MARKET_CLOSED', 'DUPLICATE_CLIENT_ORDER_ID'],
});

export const ZBookLevel = z.object({ price: z.number(), amount: z.number().describe('unfilled currency at this price') });

export const predictionOrderBook = defineEndpoint({
  id: 'orders.book',
  method: 'GET',
  path: '/api/markets/predictions/{id}/orders',
  summary: "A question's order book: open limit orders by outcome and price, best price first",
  tag: 'orders',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  params: ZMarketIdParams,
  response: z.object({
    success: ZSuccess,
    book: z.object({ YES: z.array(ZBookLevel), NO: z.array(ZBookLevel) }),
  }),
  errors: ['MARKET_NOT_FOUND'],
});

export const ordersList = defineEndpoint({
  id: 'orders.list',
  method: 'GET',
  path: '/api/markets/orders',
  summary: "The caller's orders of both kinds, newest first",
  tag: 'orders',
  auth: 'user',
  requires: ['read'],
  query: z.object({
    status: z.enum(['open', 'partially_filled', 'filled', 'cancelled', 'expired', 'triggered', 'all']).default('all')
      .describe('open: every order that can still fill (open and partially filled)'),
    marketId: ZIdParam.optional(),
    ticker: z.string().trim().min(1).max(20).transform((t) => t.toUpperCase()).optional(),
    limit: zQueryInt({ default: 50, min: 1, max: 100 }),
    offset: zQueryInt({ default: 0, max: 10_000 }),
  }),
  response: z.object({
    success: ZSuccess,
    orders: z.array(ZOrder),
    pagination: z.object({ limit: z.number(), offset: z.number(), total: z.number() }),
  }),
});

export const orderCancel = defineEndpoint({
  id: 'orders.cancel',
  method: 'DELETE',
  idempotent: true,
  path: '/api/markets/orders/{orderId}',
  summary: 'Cancel one of your open orders: its unfilled reserve is refunded',
  tag: 'orders',
  auth: 'user',
  requires: ['trade'],
  params: z.object({ orderId: ZIdParam }),
  response: z.object({ success: ZSuccess, order: ZOrder }),
  errors: ['ORDER_NOT_FOUND', 'ORDER_NOT_OPEN'],
});

/** Which open orders a cancel of many names (none: all of them). */
export const ZCancelManyFields = {
  marketId: ZIdParam.optional(),
  ticker: z.string().trim().min(1).max(20).transform((t) => t.toUpperCase()).optional(),
  clientOrderId: ZClientOrderId.optional(),
};

export const ordersCancelMany = defineEndpoint({
  id: 'orders.cancelMany',
  method: 'POST',
  path: '/api/markets/orders/cancel',
  idempotent: true,
  summary: "Cancel your open orders on a question, a ticker, by client id, or all of them (an empty body)",
  tag: 'orders',
  auth: 'user',
  requires: ['trade'],
  body: z
    .strictObject(ZCancelManyFields)
    .optional()
    .transform((b) => b ?? {}),
  response: z.object({ success: ZSuccess, cancelled: z.array(z.string()) }),
});

/** What a perp order does when it fires at its trigger price (a dry run's `preview`). */
export const ZPerpOrderPreview = z.object({
  triggerPrice: z.number(),
  size: z.number().describe('notional it closes (stop, take-profit) or opens (limit)'),
  realizedPnL: z.number().nullable().describe('stop or take-profit: the P&L of closing that size at the trigger, fees included'),
  margin: z.number().nullable().describe('limit: the margin it reserves'),
  fee: z.number(),
  liquidationPrice: z.number().nullable().describe('limit: the liquidation price of the position it would open'),
});

/** The fields of a perp order (the REST body; A2A and MCP take the same). */
export const ZPlacePerpFields = {
  ticker: z.string().trim().min(1).max(20).transform((t) => t.toUpperCase()),
  type: zCaseEnum(['stop_loss', 'take_profit', 'limit'], 'lower'),
  triggerPrice: zAmountInput({ min: 0, max: 1e9, exclusiveMin: true, description: 'the mark price that fires the order' }),
  positionId: ZIdParam.optional().describe('required for stop_loss and take_profit'),
  size: zAmountInput({ min: 1, max: 1e9, description: 'notional: to open (limit, required) or to close (stop, take-profit; default the whole position)' }).optional(),
  side: zCaseEnum(['long', 'short'], 'lower').optional().describe('required for limit'),
  leverage: zAmountInput({ min: 1, max: 100, description: 'required for limit, 1 to 100' }).optional(),
  clientOrderId: ZClientOrderId.optional(),
  dryRun: ZDryRun,
};

/** A stop or take-profit names its position; a limit order its side, size and leverage. */
export function withPerpOrderRules<S extends z.ZodType<{ type: string; positionId?: string; side?: string; leverage?: unknown; size?: unknown }>>(schema: S) {
  return schema
    .refine((b) => b.type === 'limit' || b.positionId !== undefined, { message: 'positionId is required for stop_loss and take_profit', path: ['positionId'] })
    .refine((b) => b.type !== 'limit' || (b.side !== undefined && b.leverage !== undefined && b.size !== undefined), {
      message: 'side, size and leverage are required for limit orders',
      path: ['side'],
    });
}

export const perpOrderPlace = defineEndpoint({
  id: 'orders.placePerp',
  method: 'POST',
  path: '/api/markets/perps/orders',
  idempotent: true,
  status: 201,
  summary: 'Place a stop-loss or take-profit on an open position, or a limit order that opens a position when the mark reaches its price',
  tag: 'orders',
  auth: 'user',
  requires: ['trade'],
  rateLimit: 'perpOpen',
  keyCaps: perpOrderClaim,
  body: withPerpOrderRules(z.strictObject(ZPlacePerpFields)),
  response: z.object({
    success: ZSuccess,
    order: ZPerpOrder,
    newBalance: z.string().optional().describe('a limit order: the balance after its margin is reserved'),
    preview: ZPerpOrderPreview.optional().describe('dryRun: what the order would do if it fired now at its trigger price'),
    dryRun: z.literal(true).optional(),
  }),
  errors: ['VALIDATION_ERROR', 'INSUFFICIENT_BALANCE', 'POSITION_NOT_FOUND', 'POSITION_CLOSED', 'NOT_FOUND', 'DUPLICATE_CLIENT_ORDER_ID'],
});

export const ordersEndpoints = [predictionOrderPlace, predictionOrderBook, ordersList, orderCancel, ordersCancelMany, perpOrderPlace] as const;
