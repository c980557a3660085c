/**
 * Wallet ownership proofs: the challenges the service issues for an account and an address. A
 * challenge is signed (EIP-191) by the address and used once, in the transaction that binds the
 * address to the account (users.wallet_address); the used row, with its signature, is the proof.
 */
import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { idColumn, timestamptz } from './columns';
import { users } from './users';

export const walletChallenges = pgTable(
  'wallet_challenges',
  {
    id: idColumn(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    /** The EIP-55 address the challenge is for. */
    address: text('address').notNull(),
    /** The exact text to sign: the service, the account, the address, a random nonce, the expiry. */
    message: text('message').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    /** Set once, in the binding's transaction: a used challenge never binds again. */
    usedAt: timestamptz('used_at'),
    signature: text('signature'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [index('wallet_challenges_user_idx').on(t.userId, t.createdAt)],
);

export type TWalletChallengeRow = typeof walletChallenges.$inferSelect;
