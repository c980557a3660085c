/**
 * Orders for agents (issue 32): the REST order operations as methods, on the same services and
 * rules (a limit order with its preview, the book, the caller's orders, the cancels, perp stops,
 * take-profits and limit orders).
 */
import { z } from 'zod';
import { A2A_RESULTS } from '@/lib/contracts/a2a';
import { ZIdParam } from '@/lib/contracts/common';
import { GTD_RULE, predictionOrderPlace, withPerpOrderRules, ZCancelManyFields, ZPlacePerpFields, ZPlacePredictionFields } from '@/lib/contracts/orders';
import { placePerpOrder } from '@/lib/perps/service/orders';
import { placeOrPreviewPredictionOrder } from '@/lib/markets/orders/place-order';
import { readBook } from '@/lib/markets/orders/read-book';
import { cancelOrder, cancelOrders, listOrders } from '@/lib/orders/service';
import { dec, toDecimalString, toMoney } from '@/lib/money/decimal';
import { aliasField, defineMethod } from './types';

const market = (raw: Record<string, unknown>) => aliasField(raw, 'marketId', ['id', 'questionId', 'market']);

export const orderMethods = [
  defineMethod({
    name: 'a2a.placeOrder',
    summary: 'Place a limit order on a question: buy an outcome for up to `amount` at no more than `limitPrice` a share (dryRun: true previews it)',
    group: 'orders',
    kind: 'write',
    requires: ['trade'],
    rateLimit: 'predictionsTrade',
    idempotent: true,
    params: z.strictObject({ marketId: ZIdParam.describe('the question id'), ...ZPlacePredictionFields }).refine(...GTD_RULE),
    fieldErrors: predictionOrderPlace.fieldErrors,
    keyCaps: (p) => ({ amount: p.amount, dryRun: p.dryRun }), // the reserve: the order's amount
    normalize: market,
    result: A2A_RESULTS['a2a.placeOrder'],
    run: ({ caller }, p) => placeOrPreviewPredictionOrder({ caller, ...p }),
  }),
  defineMethod({
    name: 'a2a.getOrderBook',
    summary: "A question's order book: open limit orders by outcome and price, best first",
    group: 'orders',
    kind: 'read',
    reads: 'replica',
    requires: ['read'],
    params: z.strictObject({ marketId: ZIdParam.describe('the question id') }),
    normalize: market,
    result: A2A_RESULTS['a2a.getOrderBook'],
    run: (_ctx, p) => readBook(p.marketId),
  }),
  defineMethod({
    name: 'a2a.getOrders',
    summary: 'Your orders of both kinds, newest first (status open: every order that can still fill)',
    group: 'orders',
    kind: 'read',
    requires: ['read'],
    params: z.strictObject({
      status: z.enum(['open', 'partially_filled', 'filled', 'cancelled', 'expired', 'triggered', 'all']).default('all'),
      marketId: ZIdParam.optional(),
      ticker: z.string().trim().min(1).max(20).transform((t) => t.toUpperCase()).optional(),
      limit: z.number().int().min(1).max(100).default(50),
      offset: z.number().int().min(0).max(10_000).default(0),
    }),
    result: A2A_RESULTS['a2a.getOrders'],
    run: ({ caller }, p) => listOrders({ caller, ...p }),
  }),
  defineMethod({
    name: 'a2a.cancelOrder',
    summary: 'Cancel one of your open orders: its unfilled reserve is refunded',
    group: 'orders',
    kind: 'write',
    requires: ['trade'],
    idempotent: true,
    params: z.strictObject({ orderId: ZIdParam }),
    normalize: (raw) => aliasField(raw, 'orderId', ['id']),
    result: A2A_RESULTS['a2a.cancelOrder'],
    run: ({ caller }, p) => cancelOrder({ caller, orderId: p.orderId }),
  }),
  defineMethod({
    name: 'a2a.cancelOrders',
    summary: 'Cancel your open orders on a question, a ticker, by client id, or all of them (no params)',
    group: 'orders',
    kind: 'write',
    requires: ['trade'],
    idempotent: true,
    params: z.strictObject(ZCancelManyFields),
    result: A2A_RESULTS['a2a.cancelOrders'],
    run: ({ caller }, p) => cancelOrders({ caller, ...p }),
  }),
  defineMethod({
    name: 'a2a.placePerpOrder',
    summary: 'Place a stop-loss or take-profit on your open perp position, or a limit order that opens one when the mark reaches its price (dryRun: true previews it)',
    group: 'orders',
    kind: 'write',
    requires: ['trade'],
    rateLimit: 'perpOpen',
    idempotent: true,
    params: withPerpOrderRules(z.strictObject(ZPlacePerpFields)),
    // A limit order reserves its margin (size / leverage, as the engine debits it); a stop or take-profit commits nothing.
    keyCaps: (p) =>
      p.type === 'limit' && p.size !== undefined && p.leverage !== undefined
        ? { amount: toDecimalString(toMoney(dec(p.size).div(p.leverage))), leverage: p.leverage, dryRun: p.dryRun }
        : null,
    result: A2A_RESULTS['a2a.placePerpOrder'],
    run: ({ caller }, p) => placePerpOrder({ caller, ...p }),
  }),
];

