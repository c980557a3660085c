/**
 * Orders (issue 32): limit orders on prediction markets and stop-loss, take-profit and limit
 * orders on perps. An open order's money is reserved through the ledger (`order_reserve`) and what
 * it did not use is refunded (`order_refund`), so balances stay the newest `balanceAfter`.
 */
import { sql } from 'drizzle-orm';
import { bigint, index, integer, numeric, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, money, quantity, timestamptz } from './columns';
import { markets } from './markets';
import { perpMarkets, perpPositions } from './perps';
import { users } from './users';

/** The statuses of an order that can still fill (the book, the caps, the cancels). */
export const OPEN_ORDER_STATUSES = ['open', 'partially_filled'] as const;

/**
 * A limit order buying one outcome of a question: it spends at most `amount`, never more than
 * `limitPrice` a share. `filledAmount` is what its fills spent, `shares` what they bought; while
 * it is open, `amount − filledAmount` is reserved (taken from the balance at placement).
 */
export const predictionOrders = pgTable(
  'prediction_orders',
  {
    id: idColumn(),
    /** Time priority among orders at one price. */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    marketId: text('market_id')
      .notNull()
      .references(() => markets.id),
    outcome: text('outcome', { enum: ['YES', 'NO'] }).notNull(),
    /** 0.01 to 0.99, at most 4 decimal places (so a fill's pair of payments is exact money). */
    limitPrice: numeric('limit_price', { precision: 10, scale: 4 }).notNull(),
    amount: money('amount').notNull(),
    filledAmount: money('filled_amount').notNull().default('0'),
    shares: quantity('shares').notNull().default('0'),
    status: text('status', { enum: ['open', 'partially_filled', 'filled', 'cancelled', 'expired'] }).notNull(),
    timeInForce: text('time_in_force', { enum: ['GTC', 'GTD', 'IOC'] }).notNull(),
    expiresAt: timestamptz('expires_at'),
    clientOrderId: text('client_order_id'),
    /** The API key that placed it, if any: its heartbeat cancels it. */
    apiKeyId: text('api_key_id'),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
    /** When it stopped being open (filled, cancelled or expired). */
    closedAt: timestamptz('closed_at'),
  },
  (t) => [
    // The book: a side's open orders, best (highest) price first, then oldest.
    index('prediction_orders_book_idx')
      .on(t.marketId, t.outcome, t.limitPrice.desc(), t.seq)
      .where(sql`status in ('open', 'partially_filled')`),
    index('prediction_orders_user_idx').on(t.userId, t.createdAt),
    // A stopped heartbeat's cancels: the key's open orders.
    index('prediction_orders_api_key_idx')
      .on(t.apiKeyId)
      .where(sql`status in ('open', 'partially_filled') and api_key_id is not null`),
    index('prediction_orders_expiry_idx')
      .on(t.expiresAt)
      .where(sql`status in ('open', 'partially_filled') and expires_at is not null`),
    uniqueIndex('prediction_orders_client_id_idx')
      .on(t.userId, t.clientOrderId)
      .where(sql`status in ('open', 'partially_filled') and client_order_id is not null`),
  ],
);

/**
 * A perp order. `stop_loss` and `take_profit` close (all of, or `size` of) `positionId` when the
 * mark crosses `triggerPrice`; `limit` opens a position of `size` at `leverage` when the mark
 * reaches `triggerPrice` (a long at or below, a short at or above), its `margin` reserved.
 * `firesWhen` is which way the mark must cross: `below` fires when mark ≤ triggerPrice, `above`
 * when mark ≥ triggerPrice, so a mark move finds what it triggers by one index range.
 */
export const perpOrders = pgTable(
  'perp_orders',
  {
    id: idColumn(),
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    ticker: text('ticker')
      .notNull()
      .references(() => perpMarkets.ticker),
    type: text('type', { enum: ['stop_loss', 'take_profit', 'limit'] }).notNull(),
    side: text('side', { enum: ['long', 'short'] }).notNull(),
    /** Notional to close or open; null on a stop or take-profit: the whole position. */
    size: money('size'),
    leverage: numeric('leverage', { precision: 10, scale: 4 }),
    /** The margin a limit order opens with (size / leverage). */
    margin: money('margin'),
    /** Money held while the order is open (a limit order's margin and open fee; 0 for stops). */
    reserved: money('reserved').notNull().default('0'),
    triggerPrice: quantity('trigger_price').notNull(),
    firesWhen: text('fires_when', { enum: ['below', 'above'] }).notNull(),
    positionId: text('position_id').references(() => perpPositions.id),
    /** The position a limit order opened. */
    resultPositionId: text('result_position_id'),
    status: text('status', { enum: ['open', 'filled', 'cancelled', 'triggered', 'expired'] }).notNull(),
    clientOrderId: text('client_order_id'),
    /** Why a triggered order did nothing (its position was already closed), if it did nothing. */
    note: text('note'),
    attempts: integer('attempts').notNull().default(0),
    /** The API key that placed it, if any: its heartbeat cancels it. */
    apiKeyId: text('api_key_id'),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
    triggeredAt: timestamptz('triggered_at'),
  },
  (t) => [
    index('perp_orders_trigger_idx')
      .on(t.ticker, t.firesWhen, t.triggerPrice)
      .where(sql`status = 'open'`),
    index('perp_orders_user_idx').on(t.userId, t.createdAt),
    index('perp_orders_api_key_idx')
      .on(t.apiKeyId)
      .where(sql`status = 'open' and api_key_id is not null`),
    index('perp_orders_position_idx')
      .on(t.positionId)
      .where(sql`status = 'open'`),
    uniqueIndex('perp_orders_client_id_idx')
      .on(t.userId, t.clientOrderId)
      .where(sql`status = 'open' and client_order_id is not null`),
  ],
);

export type TPredictionOrderRow = typeof predictionOrders.$inferSelect;
export type TPerpOrderRow = typeof perpOrders.$inferSelect;
