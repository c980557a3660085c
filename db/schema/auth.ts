/**
 * The service's own sessions (lib/auth/sessions.ts): one row per session token it mints (a
 * sign-in cookie or an agent's bearer token), keyed by the token's `jti`. A token is honoured only
 * while its row exists and is not revoked, so sign-out ends it on every instance at once. The tick
 * deletes rows past their expiry.
 */
import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';
import { users } from './users';

export const AUTH_SESSION_KINDS = ['cookie', 'agent'] as const;
export type TAuthSessionKind = (typeof AUTH_SESSION_KINDS)[number];

export const authSessions = pgTable(
  'auth_sessions',
  {
    /** The session token's `jti`. */
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** `cookie`: a web sign-in (the session cookie); `agent`: POST /api/agents/auth's bearer token. */
    kind: text('kind', { enum: AUTH_SESSION_KINDS }).notNull(),
    createdAt: timestamptz('created_at').notNull(),
    /** The token's `exp`: the row is pruned after it. */
    expiresAt: timestamptz('expires_at').notNull(),
    /** Set by sign-out: the token is refused from then on. */
    revokedAt: timestamptz('revoked_at'),
  },
  (t) => [index('auth_sessions_user_idx').on(t.userId), index('auth_sessions_expires_idx').on(t.expiresAt)],
);

export type TAuthSessionRow = typeof authSessions.$inferSelect;
