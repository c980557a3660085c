/**
 * Perpetual futures: one market per organization ticker, leveraged isolated-margin positions,
 * funding per 8-hour period (rates and per-position payments, each written once), trades and
 * mark/index price points. Formulas live in lib/perps (README there).
 */
import { sql } from 'drizzle-orm';
import { index, numeric, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { idColumn, money, quantity, timestamptz } from './columns';
import { users } from './users';
import { organizations } from './world';

export const perpMarkets = pgTable('perp_markets', {
  ticker: text('ticker')
    .primaryKey()
    .references(() => organizations.ticker),
  organizationId: text('organization_id')
    .notNull()
    .references(() => organizations.id),
  /** The price trades move and positions are marked at. The index is the organization's current price. */
  markPrice: quantity('mark_price').notNull(),
  /** Notional that would move the mark by 100%: a trade's impact is size / depth (capped). */
  depth: money('depth').notNull(),
  /** All-time traded notional (opens and closes). */
  volume: money('volume').notNull().default('0'),
  /** Start of the newest 8-hour period whose funding has been paid. */
  lastFundingAt: timestamptz('last_funding_at').notNull(),
  createdAt: timestamptz('created_at').notNull(),
  updatedAt: timestamptz('updated_at').notNull(),
});

export const perpPositions = pgTable(
  'perp_positions',
  {
    id: idColumn(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    ticker: text('ticker')
      .notNull()
      .references(() => perpMarkets.ticker),
    side: text('side', { enum: ['long', 'short'] }).notNull(),
    /** Notional in currency at the entry price. */
    size: money('size').notNull(),
    /** size / entryPrice. */
    units: quantity('units').notNull(),
    entryPrice: quantity('entry_price').notNull(),
    leverage: numeric('leverage', { precision: 10, scale: 4 }).notNull(),
    /** size / leverage: what the trader put up. */
    margin: money('margin').notNull(),
    /** Margin less the funding charged so far (more when funding was received). */
    collateral: money('collateral').notNull(),
    /** Funding charged to the position so far; negative when it received funding. */
    fundingPaid: money('funding_paid').notNull().default('0'),
    liquidationPrice: quantity('liquidation_price').notNull(),
    openFee: money('open_fee').notNull(),
    closeFee: money('close_fee'),
    exitPrice: quantity('exit_price'),
    /** Price PnL at close: units × (exit − entry), signed by side. */
    realizedPnL: money('realized_pnl'),
    /** Everything the position returned less everything it cost (margin and both fees). */
    netPnL: money('net_pnl'),
    status: text('status', { enum: ['open', 'closed', 'liquidated'] }).notNull().default('open'),
    /** When the holder was last warned that the mark neared the liquidation price (one warning per approach). */
    liquidationWarnedAt: timestamptz('liquidation_warned_at'),
    openedAt: timestamptz('opened_at').notNull(),
    closedAt: timestamptz('closed_at'),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [
    index('perp_positions_user_status_idx').on(t.userId, t.status, t.openedAt),
    // The liquidation sweep: open positions of a ticker and side, by liquidation price.
    index('perp_positions_liquidation_idx')
      .on(t.ticker, t.side, t.liquidationPrice)
      .where(sql`status = 'open'`),
  ],
);

/** The funding rate of each ticker for each 8-hour period, written once. */
export const perpFundingRates = pgTable(
  'perp_funding_rates',
  {
    ticker: text('ticker')
      .notNull()
      .references(() => perpMarkets.ticker),
    periodStart: timestamptz('period_start').notNull(),
    rate: quantity('rate').notNull(),
    markPrice: quantity('mark_price').notNull(),
    indexPrice: quantity('index_price').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.ticker, t.periodStart] })],
);

/** One funding payment per position and period: the primary key makes funding idempotent. */
export const perpFundingPayments = pgTable(
  'perp_funding_payments',
  {
    positionId: text('position_id')
      .notNull()
      .references(() => perpPositions.id),
    periodStart: timestamptz('period_start').notNull(),
    /** Positive: the position paid; negative: it received. */
    amount: money('amount').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.positionId, t.periodStart] })],
);

export const perpTrades = pgTable(
  'perp_trades',
  {
    id: idColumn(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    positionId: text('position_id')
      .notNull()
      .references(() => perpPositions.id),
    ticker: text('ticker').notNull(),
    side: text('side', { enum: ['long', 'short'] }).notNull(),
    action: text('action', { enum: ['open', 'close', 'liquidation'] }).notNull(),
    /** Notional traded at `price`. */
    size: money('size').notNull(),
    price: quantity('price').notNull(),
    fee: money('fee').notNull(),
    realizedPnL: money('realized_pnl'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [
    index('perp_trades_created_idx').on(t.createdAt),
    index('perp_trades_position_idx').on(t.positionId),
    index('perp_trades_user_created_idx').on(t.userId, t.createdAt),
    index('perp_trades_ticker_created_idx').on(t.ticker, t.createdAt),
  ],
);

/** Mark and index on every trade, tick and admin price change (charts, 24 h change). */
export const perpPricePoints = pgTable(
  'perp_price_points',
  {
    id: idColumn(),
    ticker: text('ticker')
      .notNull()
      .references(() => perpMarkets.ticker),
    markPrice: quantity('mark_price').notNull(),
    indexPrice: quantity('index_price').notNull(),
    source: text('source', { enum: ['seed', 'trade', 'tick', 'admin'] }).notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [index('perp_price_points_ticker_created_idx').on(t.ticker, t.createdAt)],
);

export type TPerpMarketRow = typeof perpMarkets.$inferSelect;
export type TPerpPositionRow = typeof perpPositions.$inferSelect;
export type TPerpTradeRow = typeof perpTrades.$inferSelect;
