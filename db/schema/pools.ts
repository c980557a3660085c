/**
 * Trading pools run by NPC actors (lib/pools/README.md). A pool trades from its own account (a
 * users row with isPoolAccount), so its cash is that account's balance and its positions are that
 * account's positions, moved by the same engines and ledger as anyone's. Players hold shares in
 * lots (one per deposit); the manager's seed capital is the first lot.
 */
import { boolean, index, numeric, pgTable, text } from 'drizzle-orm/pg-core';
import { idColumn, money, quantity, timestamptz } from './columns';
import { users } from './users';

export const pools = pgTable(
  'pools',
  {
    id: idColumn(),
    npcActorId: text('npc_actor_id')
      .notNull()
      .references(() => users.id),
    /** The pool's own account: its balance is the pool's cash, its positions the pool's. */
    accountUserId: text('account_user_id')
      .notNull()
      .unique()
      .references(() => users.id),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    tier: text('tier', { enum: ['S', 'A', 'B', 'C'] }).notNull(),
    /** The NAV as of the newest NAV point (for ordering); answers compute it live. */
    totalValue: money('total_value').notNull().default('0'),
    /** Shares outstanding: the sum of the lots' shares, changed only under the pool's row lock. */
    totalShares: quantity('total_shares').notNull().default('0'),
    /** Deposits less withdrawals (gross values): lifetimePnL = NAV − netDeposits. */
    netDeposits: money('net_deposits').notNull().default('0'),
    performanceFeeRate: numeric('performance_fee_rate', { precision: 6, scale: 4 }).notNull(),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [index('pools_npc_actor_idx').on(t.npcActorId)],
);

/** A lot: one deposit's shares and what they still cost. */
export const poolDeposits = pgTable(
  'pool_deposits',
  {
    id: idColumn(),
    poolId: text('pool_id')
      .notNull()
      .references(() => pools.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    /** What was paid in, and the shares and share price it bought (fixed). */
    amount: money('amount').notNull(),
    shares: quantity('shares').notNull(),
    sharePrice: quantity('share_price').notNull(),
    /** Shares still held and their part of the cost (withdrawals remove their proportion). */
    remainingShares: quantity('remaining_shares').notNull(),
    costBasis: money('cost_basis').notNull(),
    /** Withdrawn so far: gross value, profit against cost, fees paid. */
    withdrawnValue: money('withdrawn_value').notNull().default('0'),
    realizedPnL: money('realized_pnl').notNull().default('0'),
    feesPaid: money('fees_paid').notNull().default('0'),
    /** The manager's seed capital: never withdrawn, so a pool is never empty. */
    isSeed: boolean('is_seed').notNull().default(false),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [
    index('pool_deposits_user_idx').on(t.userId, t.createdAt),
    index('pool_deposits_pool_idx').on(t.poolId, t.createdAt),
  ],
);

export const poolWithdrawals = pgTable(
  'pool_withdrawals',
  {
    id: idColumn(),
    poolId: text('pool_id')
      .notNull()
      .references(() => pools.id),
    depositId: text('deposit_id')
      .notNull()
      .references(() => poolDeposits.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    shares: quantity('shares').notNull(),
    sharePrice: quantity('share_price').notNull(),
    value: money('value').notNull(),
    pnl: money('pnl').notNull(),
    performanceFee: money('performance_fee').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [
    index('pool_withdrawals_pool_idx').on(t.poolId, t.createdAt),
    index('pool_withdrawals_deposit_idx').on(t.depositId),
  ],
);

/** The NAV per tick (and after each flow): charts, priceChange24h. */
export const poolNavPoints = pgTable(
  'pool_nav_points',
  {
    id: idColumn(),
    poolId: text('pool_id')
      .notNull()
      .references(() => pools.id),
    totalValue: money('total_value').notNull(),
    totalShares: quantity('total_shares').notNull(),
    sharePrice: quantity('share_price').notNull(),
    source: text('source', { enum: ['seed', 'tick', 'deposit', 'withdraw', 'trade'] }).notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [index('pool_nav_points_pool_idx').on(t.poolId, t.createdAt)],
);

export type TPoolRow = typeof pools.$inferSelect;
export type TPoolDepositRow = typeof poolDeposits.$inferSelect;
export type TPoolWithdrawalRow = typeof poolWithdrawals.$inferSelect;
export type TPoolNavPointRow = typeof poolNavPoints.$inferSelect;
