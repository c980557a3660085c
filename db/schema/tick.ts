/**
 * Where the tick's incremental steps left off (migration 0028): each step reads what changed since
 * its mark, so a quiet minute costs nothing whatever the number of players.
 */
import { bigint, boolean, date, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { leagueSeasons } from './standings';
import { money, timestamptz } from './columns';

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
 * A new season's seating under way, a batch a tick (lib/leagues/service/seasons.ts, migration
 * 0033): the phase (stage, seat, clean, done), the stage's cursor (user ids in code-unit order)
 * and the NPCs dealt round the tiers so far, and the seat phase's keyset cursor.
 */
export const leagueSeating = pgTable('league_seating', {
  seasonId: text('season_id')
    .primaryKey()
    .references(() => leagueSeasons.id),
  day: date('day', { mode: 'string' }).notNull(),
  phase: text('phase', { enum: ['stage', 'seat', 'clean', 'done'] }).notNull(),
  afterUserId: text('after_user_id'),
  npcDealt: integer('npc_dealt').notNull().default(0),
  /** The seat phase's cursor: the last row seated in (tier, start equity, user id) order, and its rank (0-based) in its tier. */
  seatTier: integer('seat_tier'),
  seatEquity: money('seat_equity'),
  seatUserId: text('seat_user_id'),
  seatRank: bigint('seat_rank', { mode: 'number' }).notNull().default(0),
  startedAt: timestamptz('started_at').notNull(),
  finishedAt: timestamptz('finished_at'),
});

/** The staged seats of a new season: each account's tier and start equity (the division comes at the seat phase). */
export const leagueSeatingPlan = pgTable(
  'league_seating_plan',
  {
    seasonId: text('season_id')
      .notNull()
      .references(() => leagueSeasons.id),
    userId: text('user_id').notNull(),
    tier: integer('tier').notNull(),
    equity: money('equity').notNull(),
  },
  (t) => [primaryKey({ name: 'league_seating_plan_pk', columns: [t.seasonId, t.userId] })],
);

/**
 * The markets whose YES price had moved 10 points or more in 24 h at the last price-move alerts
 * run (lib/notifications/trading.ts, migration 0029), since when: a market not here that moved
 * now has all its holders read; the others, only what changed.
 */
export const priceMoveMarkets = pgTable('price_move_markets', {
  marketId: text('market_id').primaryKey(),
  since: timestamptz('since').notNull(),
});
