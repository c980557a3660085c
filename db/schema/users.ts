/** Users: players, agents and NPC actors (isActor) share one table, as in the specification. */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, money, timestamptz } from './columns';

export const users = pgTable(
  'users',
  {
    id: idColumn(),
    /** The access token's `sub`; null for NPC actors, which never sign in. */
    authSubject: text('auth_subject').unique(),
    username: text('username').notNull(),
    displayName: text('display_name').notNull().default(''),
    bio: text('bio'),
    email: text('email'),
    profileImageUrl: text('profile_image_url'),
    coverImageUrl: text('cover_image_url'),
    walletAddress: text('wallet_address').unique(),
    /** Changed only by lib/ledger, together with a balance_transactions row. */
    virtualBalance: money('virtual_balance').notNull().default('0'),
    totalDeposited: money('total_deposited').notNull().default('0'),
    totalWithdrawn: money('total_withdrawn').notNull().default('0'),
    lifetimePnL: money('lifetime_pnl').notNull().default('0'),
    reputationPoints: integer('reputation_points').notNull().default(0),
    isActor: boolean('is_actor').notNull().default(false),
    isAgent: boolean('is_agent').notNull().default(false),
    /** When the account first traded through an API key: from then on it shows as a bot. */
    botSince: timestamptz('bot_since'),
    isAdmin: boolean('is_admin').notNull().default(false),
    /** Works the report queue (list, review, resolve, dismiss, escalate); cannot ban or touch markets. */
    isModerator: boolean('is_moderator').notNull().default(false),
    /** A pool's own trading account (db/schema/pools.ts): never signs in, never listed as a person. */
    isPoolAccount: boolean('is_pool_account').notNull().default(false),
    isBanned: boolean('is_banned').notNull().default(false),
    /** A temporary ban's end (issue 35): the tick lifts it then; null while banned means until lifted. */
    bannedUntil: timestamptz('banned_until'),
    profileComplete: boolean('profile_complete').notNull().default(false),
    onChainRegistered: boolean('on_chain_registered').notNull().default(false),
    hasSocialA: boolean('has_social_a').notNull().default(false),
    hasSocialB: boolean('has_social_b').notNull().default(false),
    /** Public-profile visibility of the linked handles and the wallet (update-visibility). */
    showSocialAPublic: boolean('show_social_a_public').notNull().default(true),
    showSocialBPublic: boolean('show_social_b_public').notNull().default(true),
    showWalletPublic: boolean('show_wallet_public').notNull().default(true),
    referralCode: text('referral_code').notNull().unique(),
    referredById: text('referred_by_id'),
    /** Last time the player chose a username; null while the generated one stands. */
    usernameChangedAt: timestamptz('username_changed_at'),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    index('users_is_actor_idx').on(t.isActor),
    index('users_referred_by_idx').on(t.referredById),
    // The tick lifts temporary bans at their end: found by this index, not by a scan of every player.
    index('users_banned_until_idx').on(t.bannedUntil).where(sql`banned_until is not null`),
    // The banned authors, for the feed's total (migration 0035).
    index('users_banned_idx').on(t.id).where(sql`is_banned`),
  ],
);

export type TUserRow = typeof users.$inferSelect;
export type TNewUserRow = typeof users.$inferInsert;
