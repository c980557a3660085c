/**
 * API keys (issue 33): a player's credentials for their bots. The secret is never stored, only
 * its SHA-256 (a 256-bit random secret needs no slow hash: nothing to guess). Scopes and caps
 * narrow what the key may do (lib/api-keys); the heartbeat columns are its dead-man switch.
 */
import { sql } from 'drizzle-orm';
import { date, index, integer, numeric, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, money, timestamptz } from './columns';
import { users } from './users';

export const apiKeys = pgTable(
  'api_keys',
  {
    id: idColumn(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    /** `pm_` and the secret's next 8 characters: shown to tell keys apart. */
    prefix: text('prefix').notNull(),
    /** Hex SHA-256 of the whole secret. */
    secretHash: text('secret_hash').notNull(),
    scopes: text('scopes').array().notNull(),
    maxOrderAmount: money('max_order_amount'),
    dailyLimit: money('daily_limit'),
    maxLeverage: numeric('max_leverage', { precision: 10, scale: 4 }),
    expiresAt: timestamptz('expires_at'),
    createdAt: timestamptz('created_at').notNull(),
    /** Kept to the minute (lib/api-keys/last-used.ts), not written per request. */
    lastUsedAt: timestamptz('last_used_at'),
    revokedAt: timestamptz('revoked_at'),
    /** The armed dead-man switch: its timeout, and the game time its orders are cancelled at. */
    heartbeatTimeoutS: integer('heartbeat_timeout_s'),
    heartbeatDeadline: timestamptz('heartbeat_deadline'),
  },
  (t) => [
    uniqueIndex('api_keys_secret_hash_idx').on(t.secretHash),
    index('api_keys_user_idx').on(t.userId, t.createdAt),
    // The tick's sweep of stopped heartbeats.
    index('api_keys_heartbeat_idx').on(t.heartbeatDeadline).where(sql`heartbeat_deadline is not null`),
  ],
);

export type TApiKeyRow = typeof apiKeys.$inferSelect;

/**
 * What a key with a daily limit committed on one UTC day: raised by a conditional upsert before
 * the call (never past the limit), lowered again when the call fails.
 */
export const apiKeySpend = pgTable(
  'api_key_spend',
  {
    keyId: text('key_id')
      .notNull()
      .references(() => apiKeys.id),
    day: date('day', { mode: 'string' }).notNull(),
    amount: money('amount').notNull(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.day] })],
);
