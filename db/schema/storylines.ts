/**
 * Storylines (issue 34): every game question is born from a story with a plan (lib/game/storylines):
 * its beats (rumours, leaks, denials, filings, results, insiders' hints, deceivers' misdirection)
 * land at planned game times; the tick publishes each when its time comes (a world event and/or an
 * NPC post). The plan's roles (who knew, who misled) and its truth stay hidden until the question
 * resolves, when the storyline is published whole. NPC calls are the probabilities NPCs state on
 * questions; their calibration (Brier score over resolved calls) is public.
 */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, numeric, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';
import { markets } from './markets';
import { users } from './users';
import { organizations } from './world';

export const storylines = pgTable(
  'storylines',
  {
    id: text('id').primaryKey(),
    marketId: text('market_id')
      .notNull()
      .unique()
      .references(() => markets.id),
    organizationId: text('organization_id').references(() => organizations.id),
    /** Other organizations the story involves (a rival, a partner). */
    otherOrganizationIds: text('other_organization_ids').array().notNull().default(sql`'{}'::text[]`),
    title: text('title').notNull(),
    /** The story's theme (lib/game/storylines/plan.ts THEMES). */
    theme: text('theme').notNull(),
    /** What the story knows will happen: YES/NO for an event question; null when the world decides (price, versus). Hidden until published. */
    truth: text('truth', { enum: ['YES', 'NO'] }),
    /** The plan's hidden parts: insiders, deceivers, peakAt, clarityAt, fundamental shocks. */
    plan: jsonb('plan').notNull(),
    startsAt: timestamptz('starts_at').notNull(),
    endsAt: timestamptz('ends_at').notNull(),
    /** Set when its question resolves: the whole arc becomes public. */
    publishedAt: timestamptz('published_at'),
    outcome: text('outcome', { enum: ['YES', 'NO'] }),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [index('storylines_org_idx').on(t.organizationId, t.createdAt), index('storylines_published_idx').on(t.publishedAt)],
);

export const storylineBeats = pgTable(
  'storyline_beats',
  {
    id: text('id').primaryKey(),
    storylineId: text('storyline_id')
      .notNull()
      .references(() => storylines.id),
    seq: integer('seq').notNull(),
    /** When it lands (game time). */
    at: timestamptz('at').notNull(),
    /** rumour | leak | denial | filing | result | hint | misdirection | analysis */
    kind: text('kind').notNull(),
    headline: text('headline').notNull(),
    body: text('body').notNull(),
    /** Who says it (an NPC user), null for the press. */
    actorId: text('actor_id').references(() => users.id),
    /** press | company | insider | deceiver | analyst (hidden until published). */
    role: text('role').notNull(),
    /** The side it points to (YES/NO), null when it points nowhere. */
    direction: text('direction', { enum: ['YES', 'NO'] }),
    /** Whether it points to the truth (hidden until published; null when the truth is the world's). */
    truthful: boolean('truthful'),
    /** Signed push on the organization's fundamental value when it lands (0.05 = +5%). */
    impact: numeric('impact', { precision: 10, scale: 6 }).notNull().default('0'),
    publishedAt: timestamptz('published_at'),
    postId: text('post_id'),
    worldEventId: text('world_event_id'),
  },
  (t) => [
    uniqueIndex('storyline_beats_seq_idx').on(t.storylineId, t.seq),
    index('storyline_beats_due_idx').on(t.at).where(sql`published_at is null`),
  ],
);

/** A probability an NPC stated on a question (a post, a hint, a trade toward its view). */
export const npcCalls = pgTable(
  'npc_calls',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    marketId: text('market_id')
      .notNull()
      .references(() => markets.id),
    /** P(YES) the NPC stated. */
    probability: numeric('probability', { precision: 6, scale: 4 }).notNull(),
    /** beat | post | trade */
    source: text('source').notNull(),
    beatId: text('beat_id'),
    postId: text('post_id'),
    calledAt: timestamptz('called_at').notNull(),
  },
  (t) => [index('npc_calls_market_idx').on(t.marketId, t.userId), index('npc_calls_user_idx').on(t.userId, t.calledAt)],
);

/** Each NPC's public calibration, recomputed when questions it called resolve. */
export const npcCalibration = pgTable('npc_calibration', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id),
  /** Resolved questions called (the NPC's last call before each resolution counts). */
  resolved: integer('resolved').notNull().default(0),
  /** Calls on the side that won. */
  right: integer('right').notNull().default(0),
  /** Mean (p − outcome)² over resolved questions; null with none. */
  brier: numeric('brier', { precision: 8, scale: 6 }),
  updatedAt: timestamptz('updated_at').notNull(),
});

export type TStorylineRow = typeof storylines.$inferSelect;
export type TStorylineBeatRow = typeof storylineBeats.$inferSelect;
