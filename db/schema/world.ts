/**
 * The game world: organizations (with tickers and a hidden fair value the tick moves), the NPC
 * actors that live in it, the news the tick makes (world_events), the rules questions resolve by,
 * and the game clock with its pause switch.
 */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, numeric, pgTable, text } from 'drizzle-orm/pg-core';
import { money, timestamptz } from './columns';
import { markets } from './markets';
import { users } from './users';

export const organizations = pgTable('organizations', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  ticker: text('ticker').notNull().unique(),
  description: text('description').notNull().default(''),
  sector: text('sector').notNull().default(''),
  initialPrice: money('initial_price').notNull(),
  currentPrice: money('current_price').notNull(),
  /**
   * What the game thinks the company is worth: a random walk the tick moves, pushed by news and
   * biases; marks drift toward it. Null until the first tick (read as current_price).
   */
  fairValue: money('fair_value'),
  /**
   * What the company is worth by its story (issue 34): storylines' results, scandals and approvals
   * move it; the fair value wanders around it and reverts (lib/game/prices.ts). Null until the
   * first tick (read as the fair value).
   */
  fundamentalValue: money('fundamental_value'),
  /** Standard deviation of the fair value's relative move per tick (0.004 = 0.4%). */
  volatility: numeric('volatility', { precision: 10, scale: 6 }).notNull().default('0.004'),
  createdAt: timestamptz('created_at').notNull(),
});

/** NPC actor details; the actor's public face is its users row (isActor = true). */
export const actors = pgTable('actors', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id),
  tier: text('tier', { enum: ['S', 'A', 'B', 'C'] }).notNull(),
  role: text('role').notNull().default(''),
  personality: text('personality').notNull().default(''),
  organizationId: text('organization_id').references(() => organizations.id),
  createdAt: timestamptz('created_at').notNull(),
});

export type TOrganizationRow = typeof organizations.$inferSelect;
export type TActorRow = typeof actors.$inferSelect;

/**
 * The game clock: the time the newest game tick ran as of. Game time never moves backwards, also
 * across restarts (lib/game/README.md; `ALLOW_TEST_CLOCK` in the README's "Environment").
 */
export const gameClock = pgTable('game_clock', {
  id: text('id').primaryKey(),
  lastTickAt: timestamptz('last_tick_at').notNull(),
  /** An administrator paused the game: ticks answer without doing anything. */
  paused: boolean('paused').notNull().default(false),
  /** Completed ticks (not skipped, not paused). */
  tickCount: integer('tick_count').notNull().default(0),
  /** Wall-clock time the newest tick finished, its duration and its step counts (status endpoint). */
  lastRunAt: timestamptz('last_run_at'),
  lastTickMs: integer('last_tick_ms'),
  lastSummary: jsonb('last_summary'),
});

/**
 * News the game tick makes about organizations and actors (earnings, launches, scandals, …). Each
 * one moved its organization's fair value by `impact` and is announced on `breaking-news`.
 */
export const worldEvents = pgTable(
  'world_events',
  {
    id: text('id').primaryKey(),
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    organizationId: text('organization_id').references(() => organizations.id),
    actorId: text('actor_id').references(() => users.id),
    /** Signed relative push on the organization's fair value (0.03 = +3%). */
    impact: numeric('impact', { precision: 10, scale: 6 }).notNull().default('0'),
    /** questionNumber of the open questions this event bears on. */
    relatedQuestions: integer('related_questions').array().notNull().default(sql`'{}'::integer[]`),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [
    index('world_events_created_idx').on(t.createdAt),
    index('world_events_org_kind_idx').on(t.organizationId, t.kind, t.createdAt),
    index('world_events_actor_kind_idx').on(t.actorId, t.kind, t.createdAt),
  ],
);

/**
 * How a question made by the game resolves, from what actually happened:
 * price: the organization's price at the resolution date is above/below `threshold`;
 * event: a world event of `eventKind` about `organizationId` (by `actorId`, when set) happens
 * between the question's creation and its resolution date, as the world drew at creation.
 * Questions without a rule (admin-created, seeded) resolve from their market price.
 */
export const questionRules = pgTable('question_rules', {
  marketId: text('market_id')
    .primaryKey()
    .references(() => markets.id),
  kind: text('kind', { enum: ['price', 'event', 'versus'] }).notNull(),
  organizationId: text('organization_id').references(() => organizations.id),
  /** versus: the rival; YES when organizationId's price gains more (relative) than the rival's from `baseline`. */
  rivalOrganizationId: text('rival_organization_id').references(() => organizations.id),
  /** versus: organizationId's price over the rival's at creation. */
  baseline: numeric('baseline', { precision: 20, scale: 10 }),
  ticker: text('ticker'),
  actorId: text('actor_id').references(() => users.id),
  eventKind: text('event_kind'),
  comparison: text('comparison', { enum: ['above', 'below'] }),
  threshold: money('threshold'),
  /**
   * What the question was born with (lib/game/outcomes.ts): P(YES) from its rule, and for an event
   * rule the outcome the world drew and, when YES, the moment its event happens (the tick's news
   * makes it happen then). Hidden: read only by the tick's news and resolution steps, never by an
   * API answer. Null on rules made before the draw existed (migration 0021).
   */
  probability: numeric('probability', { precision: 8, scale: 6 }),
  drawnOutcome: text('drawn_outcome', { enum: ['YES', 'NO'] }),
  eventAt: timestamptz('event_at'),
  createdAt: timestamptz('created_at').notNull(),
});

export type TWorldEventRow = typeof worldEvents.$inferSelect;
export type TQuestionRuleRow = typeof questionRules.$inferSelect;
