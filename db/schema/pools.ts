/** Trading pools run by NPC actors. Deposits and accounting arrive with the pools issue. */
import { boolean, numeric, pgTable, text } from 'drizzle-orm/pg-core';
import { idColumn, money, quantity, timestamptz } from './columns';
import { users } from './users';

export const pools = pgTable('pools', {
  id: idColumn(),
  npcActorId: text('npc_actor_id')
    .notNull()
    .references(() => users.id),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  tier: text('tier', { enum: ['S', 'A', 'B', 'C'] }).notNull(),
  totalValue: money('total_value').notNull().default('0'),
  totalShares: quantity('total_shares').notNull().default('0'),
  lifetimePnL: money('lifetime_pnl').notNull().default('0'),
  performanceFeeRate: numeric('performance_fee_rate', { precision: 6, scale: 4 }).notNull(),
  isActive: boolean('is_active').notNull().default(true),
  createdAt: timestamptz('created_at').notNull(),
});

export type TPoolRow = typeof pools.$inferSelect;
