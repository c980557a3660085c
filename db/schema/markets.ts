/** Prediction markets (questions). Trading columns arrive with the prediction-markets issue. */
import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { idColumn, money, quantity, timestamptz } from './columns';
import { users } from './users';

export const markets = pgTable(
  'markets',
  {
    id: idColumn(),
    questionNumber: integer('question_number').generatedAlwaysAsIdentity().unique(),
    text: text('text').notNull(),
    status: text('status', { enum: ['active', 'resolved'] }).notNull().default('active'),
    /** Public pool sizes; see lib/markets/README.md for which reserve each one is. */
    yesShares: quantity('yes_shares').notNull(),
    noShares: quantity('no_shares').notNull(),
    liquidity: money('liquidity').notNull(),
    resolutionDate: timestamptz('resolution_date').notNull(),
    resolvedOutcome: text('resolved_outcome', { enum: ['YES', 'NO'] }),
    resolvedAt: timestamptz('resolved_at'),
    createdById: text('created_by_id').references(() => users.id),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [index('markets_status_idx').on(t.status, t.resolutionDate)],
);

export type TMarketRow = typeof markets.$inferSelect;
