/** The game world: organizations (with tickers) and the NPC actors that live in it. */
import { pgTable, text } from 'drizzle-orm/pg-core';
import { money, timestamptz } from './columns';
import { users } from './users';

export const organizations = pgTable('organizations', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  ticker: text('ticker').notNull().unique(),
  description: text('description').notNull().default(''),
  sector: text('sector').notNull().default(''),
  initialPrice: money('initial_price').notNull(),
  currentPrice: money('current_price').notNull(),
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
 * across restarts (CONTRACT.md "Game time").
 */
export const gameClock = pgTable('game_clock', {
  id: text('id').primaryKey(),
  lastTickAt: timestamptz('last_tick_at').notNull(),
});
