/**
 * Where the tick's incremental steps left off (migration 0028): each step reads what changed since
 * its mark, so a quiet minute costs nothing whatever the number of players.
 */
import { boolean, date, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';

/**
 * The self-dealing detector's watermark (lib/admin/detector, row 'self_dealing'): trades up to
 * `tradesThrough` (game time) were looked at; the next run reads only newer ones and the pairs and
 * referrers they touch. Row 'price_moves' (lib/notifications/trading.ts, migration 0029): the
 * game time of the last price-move alerts run.
 */
export const detectorState = pgTable('detector_state', {
  id: text('id').primaryKey(),
  tradesThrough: timestamptz('trades_through').notNull(),
  updatedAt: timestamptz('updated_at').notNull(),
});

/**
 * The daily league close of `day`, done in batches of accounts in id order across the day's first
 * ticks (lib/leagues/service/seasons.ts): the last account closed, and whether the day is complete.
 */
export const leagueCloseProgress = pgTable('league_close_progress', {
  day: date('day', { mode: 'string' }).primaryKey(),
  afterUserId: text('after_user_id'),
  done: boolean('done').notNull().default(false),
  startedAt: timestamptz('started_at').notNull(),
  finishedAt: timestamptz('finished_at'),
});

/**
 * The markets whose YES price had moved 10 points or more in 24 h at the last price-move alerts
 * run (lib/notifications/trading.ts, migration 0029), since when: a market not here that moved
 * now has all its holders read; the others, only what changed.
 */
export const priceMoveMarkets = pgTable('price_move_markets', {
  marketId: text('market_id').primaryKey(),
  since: timestamptz('since').notNull(),
});
