/**
 * Perpetual futures: one market per organization ticker, leveraged isolated-margin positions,
 * funding per 8-hour period as a cumulative funding index per ticker (one rate row per ticker and
 * period; a position's funding is the index difference since it opened, settled on close and on
 * liquidation), trades and mark/index price points. Formulas live in lib/perps (README there).
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
  /**
   * Cumulative funding per unit: Σ mark × rate over the periods paid since issue 20 (funding paid
   * before was applied to each position's collateral then). A long accrues units × (this − its entry).
   */
  fundingIndex: quantity('funding_index').notNull().default('0'),
  /**
   * Units of the ticker's open positions per side (open interest = units × mark), kept by a
   * statement-level trigger on perp_positions (migration 0032): no code writes them.
   */
  openUnitsLong: numeric('open_units_long', { precision: 50, scale: 18 }).notNull().default('0'),
  openUnitsShort: numeric('open_units_short', { precision: 50, scale: 18 }).notNull().default('0'),
  createdAt: timestamptz('created_at').notNull(),
  updatedAt: timestamptz('updated_at').notNull(),
});

/**
 * Each ticker's traded notional per UTC hour (migration 0032: filled by a trigger on perp_trades,
 * pruned by the tick after two days), so the 24 h volume reads hours, not every trade of the day.
 */
export const perpVolumeHours = pgTable(
  'perp_volume_hours',
  {
    ticker: text('ticker')
      .notNull()
      .references(() => perpMarkets.ticker),
    hour: timestamptz('hour').notNull(),
    amount: money('amount').notNull(),
  },
  (t) => [primaryKey({ name: 'perp_volume_hours_pk', columns: [t.ticker, t.hour] }), index('perp_volume_hours_hour_idx').on(t.hour)],
);

/** The generated buffer keys' expression (migration 0028) for a buffer ratio of `ratio`. */
const bufferKeySql = (ratio: string) =>
  `case when margin - 0.005 * size <= 0 or units <= 0 then (case when side = 'long' then 1e18 else -1e18 end) else liquidation_price - trunc(case when side = 'long' then funding_index_entry::numeric(80, 40) / (1 - 0.005) else funding_index_entry::numeric(80, 40) / (1 + 0.005) end, 18) + (case when side = 'long' then trunc((${ratio} * (margin - 0.005 * size))::numeric(80, 40) / (units * (1 - 0.005)), 18) else -trunc((${ratio} * (margin - 0.005 * size))::numeric(80, 40) / (units * (1 + 0.005)), 18) end) end`;
/** The generated funding-notice keys' expression (migration 0028). */
const fundingNoticeKeySql = (sign: '+' | '-') =>
  `case when units > 0 then coalesce(funding_noticed_index, funding_index_entry) ${sign} trunc((0.05 * greatest(collateral, 0))::numeric(80, 40) / units, 18) end`;

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
    /**
     * Margin less the funding settled so far (more when funding was received). While open, the
     * funding accrued since `fundingIndexEntry` is not in it: readers add it (lib/perps/math
     * withAccruedFunding); close and liquidation settle it here.
     */
    collateral: money('collateral').notNull(),
    /** Funding settled on the position so far; negative when it received funding. Open: plus the accrual. */
    fundingPaid: money('funding_paid').notNull().default('0'),
    /** From `collateral` (lib/perps/math liquidationPrice). Open: readers add the accrual's shift. */
    liquidationPrice: quantity('liquidation_price').notNull(),
    /**
     * The ticker's funding index when the position opened (moved past any period boundary that
     * came before the open but was paid after it, so it never pays for a period it was not open
     * across). Accrued funding = ±units × (perp_markets.funding_index − this).
     */
    fundingIndexEntry: quantity('funding_index_entry').notNull().default('0'),
    /**
     * liquidation_price − trunc(funding_index_entry / (1 ∓ m), 18) (lib/perps/math liquidationKey,
     * m = MAINTENANCE_RATE 0.5%): the liquidation price free of the index, so the sweep finds what
     * the mark and the funding reached by one range per ticker and side (key ≥ mark − shift(index)
     * for a long, ≤ for a short). Generated: it follows every write of either column.
     */
    liquidationKey: quantity('liquidation_key')
      .notNull()
      .generatedAlwaysAs(
        sql`liquidation_price - trunc(case when side = 'long' then funding_index_entry::numeric(80, 40) / (1 - 0.005) else funding_index_entry::numeric(80, 40) / (1 + 0.005) end, 18)`,
      ),
    /**
     * The mark less the index's shift at which the margin buffer is down to a quarter
     * (liquidation_warn_key) or back above half (liquidation_reset_key) of what it was at open
     * (lib/notifications/alerts-math, m = 0.5%): the alerts step reads one range per ticker and
     * side (long: warn key ≥ mark − shift, short: ≤). No buffer at open: ±1e18 (always warned,
     * never reset). Generated, migration 0028.
     */
    liquidationWarnKey: quantity('liquidation_warn_key').generatedAlwaysAs(sql.raw(bufferKeySql('0.25'))),
    liquidationResetKey: quantity('liquidation_reset_key').generatedAlwaysAs(sql.raw(bufferKeySql('0.5'))),
    /** The ticker's funding index at the holder's last funding notice on it; null: none since the position opened. */
    fundingNoticedIndex: quantity('funding_noticed_index'),
    /**
     * The funding indexes at which what the position paid or received since then (or since it
     * opened) reaches 5% of its collateral: the funding notice's candidates (lib/perps/service/funding.ts).
     */
    fundingNoticeHi: quantity('funding_notice_hi').generatedAlwaysAs(sql.raw(fundingNoticeKeySql('+'))),
    fundingNoticeLo: quantity('funding_notice_lo').generatedAlwaysAs(sql.raw(fundingNoticeKeySql('-'))),
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
    /** The API key the position was opened with, if any. */
    apiKeyId: text('api_key_id'),
    openedAt: timestamptz('opened_at').notNull(),
    closedAt: timestamptz('closed_at'),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [
    index('perp_positions_user_status_idx').on(t.userId, t.status, t.openedAt),
    // The liquidation sweep: open positions of a ticker and side, by their index-free liquidation key.
    index('perp_positions_liquidation_idx')
      .on(t.ticker, t.side, t.liquidationKey)
      .where(sql`status = 'open'`),
    // The funding step: open positions opened after a boundary it is paying (normally none or a
    // tick's worth), whose entry index moves past the period.
    index('perp_positions_open_opened_idx')
      .on(t.ticker, t.openedAt)
      .where(sql`status = 'open'`),
    // Liquidation warnings and their reset (lib/notifications/trading.ts): the positions whose threshold the mark crossed.
    index('perp_positions_warn_idx')
      .on(t.ticker, t.side, t.liquidationWarnKey)
      .where(sql`status = 'open' and liquidation_warned_at is null`),
    index('perp_positions_reset_idx')
      .on(t.ticker, t.side, t.liquidationResetKey)
      .where(sql`status = 'open' and liquidation_warned_at is not null`),
    // Funding notices: the open positions whose notice threshold the period's index crossed.
    index('perp_positions_funding_hi_idx')
      .on(t.ticker, t.fundingNoticeHi)
      .where(sql`status = 'open'`),
    index('perp_positions_funding_lo_idx')
      .on(t.ticker, t.fundingNoticeLo)
      .where(sql`status = 'open'`),
  ],
);

/** The funding rate of each ticker for each 8-hour period, written once, with the index it made. */
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
    /** perp_markets.funding_index after this period (0 for periods paid before the index existed). */
    cumulativeIndex: quantity('cumulative_index').notNull().default('0'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.ticker, t.periodStart] })],
);

/**
 * History: one funding payment per position and period, as paid before the funding index
 * (issue 20). Nothing writes it any more; kept so that history is not lost.
 */
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
/** The alerts' and funding notices' keys (migration 0028): read by their statements only, optional in a row built by hand. */
type TPerpPositionKeys = 'liquidationWarnKey' | 'liquidationResetKey' | 'fundingNoticedIndex' | 'fundingNoticeHi' | 'fundingNoticeLo';
export type TPerpPositionRow = Omit<typeof perpPositions.$inferSelect, TPerpPositionKeys> & Partial<Pick<typeof perpPositions.$inferSelect, TPerpPositionKeys>>;
export type TPerpTradeRow = typeof perpTrades.$inferSelect;
