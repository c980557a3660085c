/** The ledger: one row per balance change, written by lib/ledger in the same transaction. */
import { bigint, boolean, index, pgTable, text } from 'drizzle-orm/pg-core';
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

/**
 * Each ledger type's class and whether it is a trade (migration 0034): what the account_totals
 * trigger sums by. Equal to lib/ledger/account-numbers.ts LEDGER_CLASS and lib/users TRADE_TYPES
 * (test/api/account-totals.int.test.ts).
 */
export const ledgerTypeClasses = pgTable('ledger_type_classes', {
  type: text('type').primaryKey(),
  class: text('class').notNull(),
  isTrade: boolean('is_trade').notNull(),
});

/**
 * Each account's ledger totals (migration 0034), kept by a statement-level trigger on
 * balance_transactions: Σ amount of the contribution types and of each product's types, and the
 * number of trades. Never written by code; read by lib/equity and the stats.
 */
export const accountTotals = pgTable('account_totals', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id),
  trades: bigint('trades', { mode: 'number' }).notNull().default(0),
  contributions: money('contributions').notNull().default('0'),
  flowPredictions: money('flow_predictions').notNull().default('0'),
  flowPerps: money('flow_perps').notNull().default('0'),
  flowPools: money('flow_pools').notNull().default('0'),
});
