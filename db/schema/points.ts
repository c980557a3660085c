/**
 * Points and what earns them: the points ledger (lib/points is its only writer), the awards that
 * may happen once (milestones, share verifications, waitlist bonuses), referrals and the
 * referral fees they earn, share actions, linked social accounts, the waitlist email (and its
 * verification tokens) and the on-chain identity intents.
 */
import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgSequence, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, money, timestamptz } from './columns';
import { users } from './users';

/** One row per change of users.reputation_points: pointsAfter = pointsBefore + amount, never below zero. */
export const pointsTransactions = pgTable(
  'points_transactions',
  {
    id: idColumn(),
    /** Strictly increasing: orders rows written in the same instant ("newest pointsAfter"). */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    amount: integer('amount').notNull(),
    pointsBefore: integer('points_before').notNull(),
    pointsAfter: integer('points_after').notNull(),
    /** A short machine-readable reason: milestone:profile_completed, transfer_in, admin_award, … */
    reason: text('reason').notNull(),
    /** The once-only award this row pays, when it is one (points_awards). */
    awardKey: text('award_key'),
    /** The other side of a transfer, the administrator of an award, the share verified, … */
    metadata: jsonb('metadata').$type<Record<string, unknown>>(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [index('points_transactions_user_seq_idx').on(t.userId, t.seq)],
);

/**
 * Awards a user may receive once (a milestone, a verified share of one piece of content on one
 * platform, a waitlist bonus): the primary key is the guarantee, claimed in the statement that
 * pays the points.
 */
export const pointsAwards = pgTable(
  'points_awards',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    awardKey: text('award_key').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.awardKey] })],
);

/** A completed referral: one per referred user (the first referrer is the only one). */
export const referrals = pgTable(
  'referrals',
  {
    id: idColumn(),
    referrerId: text('referrer_id')
      .notNull()
      .references(() => users.id),
    referredUserId: text('referred_user_id')
      .notNull()
      .unique()
      .references(() => users.id),
    status: text('status').notNull().default('completed'),
    /** The code the referred player used. */
    code: text('code').notNull(),
    completedAt: timestamptz('completed_at').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [index('referrals_referrer_idx').on(t.referrerId, t.completedAt)],
);

/**
 * The referrer's half of a referred player's trading fee, one row per referral_fee ledger row,
 * written in the same statement: which referred player, which product (predictions, perps,
 * pools), and how much, so the referral-fees breakdown never parses ledger descriptions.
 */
export const referralFees = pgTable(
  'referral_fees',
  {
    id: idColumn(),
    referrerId: text('referrer_id').notNull(),
    referredUserId: text('referred_user_id').notNull(),
    source: text('source').notNull(),
    amount: money('amount').notNull(),
    /** The balance_transactions row that paid it. */
    transactionId: text('transaction_id').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [index('referral_fees_referrer_idx').on(t.referrerId, t.createdAt)],
);

/** A share of some content to an external platform, verified later for points. */
export const shareActions = pgTable(
  'share_actions',
  {
    id: idColumn(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    platform: text('platform').notNull(),
    contentType: text('content_type').notNull(),
    contentId: text('content_id').notNull(),
    url: text('url'),
    /** pending → verified (points paid once per content and platform) or rejected. */
    status: text('status').notNull().default('pending'),
    externalPostId: text('external_post_id'),
    externalUrl: text('external_url'),
    pointsAwarded: integer('points_awarded').notNull().default(0),
    verifiedAt: timestamptz('verified_at'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [
    index('share_actions_user_idx').on(t.userId, t.createdAt),
    // One external post verifies at most one share, ever (any player): the key of a share reward.
    uniqueIndex('share_actions_external_post_idx').on(t.platform, t.externalPostId),
  ],
);

/** A linked external social account: one per user and platform. */
export const socialLinks = pgTable(
  'social_links',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    platform: text('platform').notNull(),
    username: text('username').notNull(),
    linkedAt: timestamptz('linked_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.platform] })],
);

/** The waitlist email bonus: one address per user, one user per address. */
export const waitlistEmails = pgTable(
  'waitlist_emails',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => users.id),
    email: text('email').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [uniqueIndex('waitlist_emails_email_idx').on(sql`lower(${t.email})`)],
);

/**
 * A waitlist email waiting for its proof: the token sent to the address (only its SHA-256 is
 * stored), valid until expiresAt, used once. Presenting it reserves the address (waitlist_emails)
 * and pays the bonus. A new request replaces the player's unused tokens.
 */
export const waitlistEmailTokens = pgTable(
  'waitlist_email_tokens',
  {
    id: idColumn(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamptz('expires_at').notNull(),
    usedAt: timestamptz('used_at'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [index('waitlist_email_tokens_user_idx').on(t.userId)],
);

/** Token ids of on-chain identities: one sequence, so ids are unique across users and agents. */
export const identityTokenSeq = pgSequence('identity_token_seq', { startWith: 1, increment: 1 });

/**
 * An on-chain identity registration: ONCHAIN_IN_PROGRESS until the registrar confirms
 * (COMPLETED, the user onChainRegistered) or fails (FAILED with a reason, retried on request).
 */
export const onboardingIntents = pgTable('onboarding_intents', {
  id: idColumn(),
  userId: text('user_id')
    .notNull()
    .unique()
    .references(() => users.id),
  status: text('status').notNull(),
  nftTokenId: integer('nft_token_id').notNull().unique(),
  registrar: text('registrar').notNull(),
  txHash: text('tx_hash'),
  ownerAddress: text('owner_address'),
  failureReason: text('failure_reason'),
  attempts: integer('attempts').notNull().default(0),
  createdAt: timestamptz('created_at').notNull(),
  updatedAt: timestamptz('updated_at').notNull(),
  completedAt: timestamptz('completed_at'),
});

export type TPointsTransactionRow = typeof pointsTransactions.$inferSelect;
export type TReferralRow = typeof referrals.$inferSelect;
export type TShareActionRow = typeof shareActions.$inferSelect;
export type TOnboardingIntentRow = typeof onboardingIntents.$inferSelect;
