/**
 * Idempotency keys (README "Idempotent writes"): the first answer to a money or points POST sent with
 * an `Idempotency-Key` header, stored per caller in the same transaction as the request's effect
 * (lib/idempotency). A repeat within 24 hours replays it; the tick deletes older rows.
 */
import { index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    /**
     * The caller. Deliberately no foreign key: claiming a key would then take a KEY SHARE lock on
     * the caller's user row before the operation locks users in its own order (a transfer locks
     * both sides by id), and two opposite transfers deadlocked on it (the soak found it).
     */
    userId: text('user_id').notNull(),
    key: text('key').notNull(),
    /** The operation's id: a key names one request of one operation. */
    operation: text('operation').notNull(),
    /** SHA-256 of the operation, its path parameters and its body as received (hex). */
    requestHash: text('request_hash').notNull(),
    /**
     * The stored answer: HTTP status and the operation's result as the exact JSON text first sent
     * (text, not jsonb, which reorders keys: a replay is byte-identical to the first answer).
     */
    status: integer('status').notNull(),
    response: text('response').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

export type TIdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;
