/** The ledger: one row per balance change, written by lib/ledger in the same transaction. */
import { bigint, index, pgTable, text } from 'drizzle-orm/pg-core';
import { idColumn, money, timestamptz } from './columns';
import { users } from './users';

export const balanceTransactions = pgTable(
  'balance_transactions',
  {
    id: idColumn(),
    /** Strictly increasing: orders rows written in the same instant ("newest balanceAfter"). */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    type: text('type').notNull(),
    amount: money('amount').notNull(),
    balanceBefore: money('balance_before').notNull(),
    balanceAfter: money('balance_after').notNull(),
    description: text('description').notNull().default(''),
    /** What caused the change (a market, a position, a pool), for audits and history links. */
    referenceType: text('reference_type'),
    referenceId: text('reference_id'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [index('balance_transactions_user_seq_idx').on(t.userId, t.seq)],
);

export type TBalanceTransactionRow = typeof balanceTransactions.$inferSelect;
