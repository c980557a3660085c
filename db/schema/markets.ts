/**
 * Prediction markets (questions), positions, trades, price history and biases.
 * `yesShares`/`noShares` are the specification's public weights: yesShares is the pool's NO
 * reserve and noShares its YES reserve (lib/markets/README.md).
 */
import { index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { numeric } from 'drizzle-orm/pg-core';
import { idColumn, money, quantity, timestamptz } from './columns';
import { users } from './users';

export const markets = pgTable(
  'markets',
  {
    id: idColumn(),
    questionNumber: integer('question_number').generatedAlwaysAsIdentity().unique(),
    text: text('text').notNull(),
    status: text('status', { enum: ['active', 'resolved'] }).notNull().default('active'),
    yesShares: quantity('yes_shares').notNull(),
    noShares: quantity('no_shares').notNull(),
    liquidity: money('liquidity').notNull(),
    /** All-time traded amount (buys and sales, gross). */
    volume: money('volume').notNull().default('0'),
    resolutionDate: timestamptz('resolution_date').notNull(),
    resolvedOutcome: text('resolved_outcome', { enum: ['YES', 'NO'] }),
    resolvedAt: timestamptz('resolved_at'),
    createdById: text('created_by_id').references(() => users.id),
    createdAt: timestamptz('created_at').notNull(),
    /**
     * Open limit orders per outcome (lib/markets/orders), kept under the market lock. The buy
     * statement reads them from the row it locks, so it always sees the book as of its lock and
     * hands a buy that could meet an order to the matching engine.
     */
    openYesOrders: integer('open_yes_orders').notNull().default(0),
    openNoOrders: integer('open_no_orders').notNull().default(0),
  },
  (t) => [index('markets_status_idx').on(t.status, t.resolutionDate)],
);

/** One row per user, market and side; shares fall to 0 when sold, the row stays as history. */
export const marketPositions = pgTable(
  'market_positions',
  {
    id: idColumn(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    marketId: text('market_id')
      .notNull()
      .references(() => markets.id),
    side: text('side', { enum: ['YES', 'NO'] }).notNull(),
    shares: quantity('shares').notNull().default('0'),
    /** What the shares still held cost (sales remove their proportional part). */
    costBasis: money('cost_basis').notNull().default('0'),
    realizedPnL: money('realized_pnl').notNull().default('0'),
    /** Set when the market resolves: the payout of this position. */
    payout: money('payout'),
    settledAt: timestamptz('settled_at'),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('market_positions_user_market_side_idx').on(t.userId, t.marketId, t.side),
    index('market_positions_market_idx').on(t.marketId),
  ],
);

export const trades = pgTable(
  'trades',
  {
    id: idColumn(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    marketId: text('market_id')
      .notNull()
      .references(() => markets.id),
    positionId: text('position_id').notNull(),
    side: text('side', { enum: ['YES', 'NO'] }).notNull(),
    action: text('action', { enum: ['buy', 'sell'] }).notNull(),
    /** Gross amount: paid for a buy, paid out by the pool for a sale. */
    amount: money('amount').notNull(),
    shares: quantity('shares').notNull(),
    price: quantity('price').notNull(),
    feeTotal: money('fee_total').notNull(),
    feePlatform: money('fee_platform').notNull(),
    feeReferrer: money('fee_referrer').notNull(),
    yesPriceAfter: quantity('yes_price_after').notNull(),
    /** The limit order this trade filled (its owner's side of a fill), if any. */
    orderId: text('order_id'),
    /** The API key the trader traded with (lib/api-keys), if any. */
    apiKeyId: text('api_key_id'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [
    index('trades_created_idx').on(t.createdAt),
    index('trades_user_created_idx').on(t.userId, t.createdAt),
    index('trades_market_created_idx').on(t.marketId, t.createdAt),
  ],
);

/**
 * Each market's traded amount (trades.amount) per hour of UTC, kept by the trigger of migration
 * 0031 on every insert into trades: the 24 h volume reads these hours instead of the day's trades
 * (lib/markets/sql.ts volume24hSql). Hours two days old are dropped by the tick.
 */
export const marketVolumeHours = pgTable(
  'market_volume_hours',
  {
    marketId: text('market_id')
      .notNull()
      .references(() => markets.id),
    hour: timestamptz('hour').notNull(),
    amount: money('amount').notNull(),
  },
  (t) => [primaryKey({ name: 'market_volume_hours_pk', columns: [t.marketId, t.hour] }), index('market_volume_hours_hour_idx').on(t.hour)],
);

/** A price point on every trade, every tick, at creation and at resolution (charts). */
export const marketPricePoints = pgTable(
  'market_price_points',
  {
    id: idColumn(),
    marketId: text('market_id')
      .notNull()
      .references(() => markets.id),
    yesPrice: quantity('yes_price').notNull(),
    yesShares: quantity('yes_shares').notNull(),
    noShares: quantity('no_shares').notNull(),
    source: text('source', { enum: ['create', 'trade', 'tick', 'resolve'] }).notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [index('market_price_points_market_created_idx').on(t.marketId, t.createdAt)],
);

/** Sentiment adjustments the game applies to a market for a while (news, rumours). */
export const marketBiases = pgTable(
  'market_biases',
  {
    id: idColumn(),
    marketId: text('market_id')
      .notNull()
      .references(() => markets.id),
    direction: text('direction', { enum: ['YES', 'NO'] }).notNull(),
    /** Strength of the push, 0..1. */
    adjustment: numeric('adjustment', { precision: 10, scale: 6 }).notNull(),
    /** Largest price move the bias may cause per tick. */
    priceImpact: numeric('price_impact', { precision: 10, scale: 6 }).notNull(),
    /** Fraction of the adjustment lost per hour. */
    decayRate: numeric('decay_rate', { precision: 10, scale: 6 }).notNull(),
    reason: text('reason').notNull().default(''),
    expiresAt: timestamptz('expires_at').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [index('market_biases_expires_idx').on(t.expiresAt)],
);

export type TMarketRow = typeof markets.$inferSelect;
export type TMarketPositionRow = typeof marketPositions.$inferSelect;
export type TTradeRow = typeof trades.$inferSelect;
