/**
 * Standing: the leaderboard's read model (one row per ranked account, refreshed incrementally
 * from the users whose points, PnL or profile changed), reputation, trading leagues (weekly
 * seasons, daily equity) and the registry's third-party apps. lib/standings, lib/leagues and
 * lib/registry describe them.
 */
import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, jsonb, numeric, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { idColumn, money, timestamptz } from './columns';
import { users } from './users';

/**
 * The leaderboard and registry read model. A new account's row is inserted by a trigger on users
 * in the transaction that creates it (migration 0020: listed at once, tick or no tick); after that
 * it is written only by lib/standings/refresh.ts: rows of users marked in standings_dirty are
 * recomputed by the tick (and at most every few seconds by a read), so a page is an index range
 * scan, never a scan of users and their histories.
 */
export const standings = pgTable(
  'standings',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => users.id),
    /** user, actor (an NPC) or agent. */
    kind: text('kind', { enum: ['user', 'actor', 'agent'] }).notNull(),
    /** False for banned accounts: kept, but never ranked or listed. */
    listed: boolean('listed').notNull(),
    /** users.reputation_points as of the refresh. */
    points: integer('points').notNull(),
    /** Points earned by one's own activity (milestones, shares, bonuses, awards), transfers and referrals aside. */
    earnedPoints: integer('earned_points').notNull(),
    /** Points earned by referring players. */
    referralPoints: integer('referral_points').notNull(),
    /** What the ledger booked as realized (users.lifetime_pnl); the boards rank by pnlAll. */
    lifetimePnL: money('lifetime_pnl').notNull(),
    /**
     * The P&L boards (lib/standings README "P&L and ROI"): the one P&L of lib/equity (equity −
     * contributions) in total and over the day, week and season, and the return on it; as of pnlAt.
     */
    pnlAll: money('pnl_all').notNull().default('0'),
    pnlDay: money('pnl_day').notNull().default('0'),
    pnlWeek: money('pnl_week').notNull().default('0'),
    pnlSeason: money('pnl_season').notNull().default('0'),
    roiAll: numeric('roi_all', { precision: 30, scale: 8 }).notNull().default('0'),
    roiDay: numeric('roi_day', { precision: 30, scale: 8 }).notNull().default('0'),
    roiWeek: numeric('roi_week', { precision: 30, scale: 8 }).notNull().default('0'),
    roiSeason: numeric('roi_season', { precision: 30, scale: 8 }).notNull().default('0'),
    equity: money('equity').notNull().default('0'),
    pnlAt: timestamptz('pnl_at'),
    /** The reputation score (0 to 1000) and its level, as of reputationAt. */
    reputation: integer('reputation').notNull().default(0),
    reputationLevel: text('reputation_level').notNull().default('newcomer'),
    reputationAt: timestamptz('reputation_at'),
    refreshedAt: timestamptz('refreshed_at').notNull(),
    /** When the account was first ranked (game time): newcomers between daily closes. */
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    // One index per board: a page is a range of it, a rank a count of its head.
    index('standings_points_idx').on(t.points.desc(), t.userId).where(sql`listed`),
    index('standings_earned_idx').on(t.earnedPoints.desc(), t.userId).where(sql`listed`),
    index('standings_referral_idx').on(t.referralPoints.desc(), t.userId).where(sql`listed`),
    index('standings_reputation_idx').on(t.reputation.desc(), t.userId).where(sql`listed`),
    index('standings_pnl_all_idx').on(t.pnlAll.desc(), t.userId).where(sql`listed`),
    index('standings_pnl_day_idx').on(t.pnlDay.desc(), t.userId).where(sql`listed`),
    index('standings_pnl_week_idx').on(t.pnlWeek.desc(), t.userId).where(sql`listed`),
    index('standings_pnl_season_idx').on(t.pnlSeason.desc(), t.userId).where(sql`listed`),
    index('standings_roi_all_idx').on(t.roiAll.desc(), t.userId).where(sql`listed`),
    index('standings_roi_day_idx').on(t.roiDay.desc(), t.userId).where(sql`listed`),
    index('standings_roi_week_idx').on(t.roiWeek.desc(), t.userId).where(sql`listed`),
    index('standings_roi_season_idx').on(t.roiSeason.desc(), t.userId).where(sql`listed`),
    // The P&L sweep: the stalest first (never computed first).
    index('standings_pnl_stale_idx').on(t.pnlAt.asc().nullsFirst(), t.userId),
    // The reputation sweep: the stalest first, in its own order (nulls, never computed, first).
    index('standings_reputation_stale_idx').on(t.reputationAt.asc().nullsFirst(), t.userId),
    // Newcomers between daily closes: accounts first ranked in the last minutes.
    index('standings_created_idx').on(t.createdAt),
  ],
);

/**
 * Accounts whose standing must be recomputed. Rows are added by database triggers on users
 * (points, PnL, ban, name or image changed; a new account) and follows (a new follower), in the
 * transaction that made the change, so a mark is visible exactly when the change is; the refresh
 * deletes the marks it handles in its own transaction.
 */
export const standingsDirty = pgTable('standings_dirty', {
  userId: text('user_id').primaryKey(),
});

/** A weekly league season (Monday 00:00 UTC of game time to the next Monday). */
export const leagueSeasons = pgTable('league_seasons', {
  /** ISO week, e.g. 2026-W48. */
  id: text('id').primaryKey(),
  startsAt: timestamptz('starts_at').notNull(),
  endsAt: timestamptz('ends_at').notNull(),
  status: text('status', { enum: ['open', 'closed'] }).notNull(),
  closedAt: timestamptz('closed_at'),
});

/** A player's place in a season: tier, start equity, and at the close the score and the outcome. */
export const leagueMembers = pgTable(
  'league_members',
  {
    seasonId: text('season_id')
      .notNull()
      .references(() => leagueSeasons.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    /** 0 bronze … 4 diamond (lib/leagues/math.ts TIERS). */
    tier: integer('tier').notNull(),
    /** Equity when the player joined the season: the size that groups players into divisions. */
    startEquity: money('start_equity').notNull(),
    joinedAt: timestamptz('joined_at').notNull(),
    /** Set when the season closes. */
    division: integer('division'),
    rank: integer('rank'),
    score: numeric('score', { precision: 20, scale: 8 }),
    seasonReturn: numeric('season_return', { precision: 20, scale: 8 }),
    volatility: numeric('volatility', { precision: 20, scale: 8 }),
    trades: integer('trades'),
    days: integer('days'),
    qualified: boolean('qualified'),
    outcome: text('outcome', { enum: ['promoted', 'relegated', 'stayed'] }),
  },
  (t) => [
    primaryKey({ columns: [t.seasonId, t.userId] }),
    index('league_members_user_idx').on(t.userId, t.seasonId),
    // The season close's next divisions: members without an outcome yet (migration 0030).
    index('league_members_unranked_idx').on(t.seasonId, t.tier, t.division).where(sql`outcome is null`),
  ],
);

/**
 * Each player's equity at the close of a game day (cash, open positions at their marks, pool
 * shares at their price) and the money that came in or went out that day otherwise than by
 * trading (deposits, transfers, bonuses, referral fees): the daily returns leagues rank by and
 * the PnL sparklines of the leaderboard.
 */
export const equitySnapshots = pgTable(
  'equity_snapshots',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    day: date('day', { mode: 'string' }).notNull(),
    equity: money('equity').notNull(),
    flows: money('flows').notNull(),
    lifetimePnL: money('lifetime_pnl').notNull(),
    /** The one P&L (lib/equity) at the close: equity − contributions so far. Null on closes before migration 0022. */
    pnl: money('pnl'),
    /** The P&L by product at the close (issue 35: analytics split by product); null before migration 0027. */
    pnlPredictions: money('pnl_predictions'),
    pnlPerps: money('pnl_perps'),
    pnlPools: money('pnl_pools'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] }), index('equity_snapshots_day_idx').on(t.day)],
);

/** Third-party clients an administrator registered: listed in the registry as apps. */
export const registryApps = pgTable(
  'registry_apps',
  {
    id: idColumn(),
    name: text('name').notNull(),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id),
    capabilities: jsonb('capabilities').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    createdById: text('created_by_id')
      .notNull()
      .references(() => users.id),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [index('registry_apps_created_idx').on(t.createdAt, t.id)],
);

export type TStandingRow = typeof standings.$inferSelect;
export type TLeagueMemberRow = typeof leagueMembers.$inferSelect;
export type TRegistryAppRow = typeof registryApps.$inferSelect;
