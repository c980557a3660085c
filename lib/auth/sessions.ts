/**
 * The service's own sessions: each session token it mints (a sign-in cookie, an agent's bearer
 * token) has an auth_sessions row keyed by the token's `jti`, written before the token exists. A
 * session token is honoured only while its row is live (not revoked), checked against the
 * database on every request, so sign-out ends it at once on every instance; the in-memory memory
 * of verified signatures (jwt.ts) never stands in for that check. The tick deletes expired rows.
 * I/O: the database. Times are wall time (tokens expire by the wall clock, never by game time).
 */
import 'server-only';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import { getDb, preparedQuery, type Db } from '@/db/client';
import { authSessions, users, type TAuthSessionKind, type TUserRow } from '@/db/schema';
import { signSessionToken } from './jwt';

/**
 * Opens a session for a user: writes its row, then signs its token (subject = the user's token
 * subject, `jti` = the row). Answers the token and its expiry.
 */
export async function openSession(input: {
  user: Pick<TUserRow, 'id' | 'authSubject'>;
  kind: TAuthSessionKind;
  expiresAt: Date;
}): Promise<{ token: string; expiresAt: Date }> {
  const subject = input.user.authSubject;
  if (!subject) throw new Error('openSession: the user has no token subject (an NPC actor or a pool account never signs in)');
  // Whole seconds, as the token's `exp` holds it: the row, the token and the cookie agree.
  const expiresAt = new Date(Math.floor(input.expiresAt.getTime() / 1000) * 1000);
  const id = crypto.randomUUID();
  const db = await getDb();
  await db.insert(authSessions).values({ id, userId: input.user.id, kind: input.kind, createdAt: new Date(), expiresAt });
  const token = await signSessionToken({ subject, sessionId: id, agent: input.kind === 'agent', expiresAt });
  return { token, expiresAt };
}

// One indexed lookup answers both questions a request asks of a session token: is the session
// live, and who is its user (which principalFor, in lib/principals, would otherwise query by subject).
const userBySession = (db: Db) =>
  db
    .select({ user: users })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .where(and(eq(authSessions.id, sql.placeholder('id')), isNull(authSessions.revokedAt), eq(users.authSubject, sql.placeholder('subject'))))
    .prepare('user_by_session');

/**
 * The user of a live session (its row exists, is not revoked and belongs to `subject`), or
 * undefined. Runs on every request that carries one of our session tokens, so it is prepared.
 */
export async function findSessionUser(sessionId: string, subject: string): Promise<TUserRow | undefined> {
  const db = await getDb();
  const [row] = await preparedQuery(db, 'user_by_session', userBySession).execute({ id: sessionId, subject });
  return row?.user;
}

/** Revokes a user's session; true when it was live. The token is refused from the next request on. */
export async function revokeSession(sessionId: string, userId: string): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .update(authSessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(authSessions.id, sessionId), eq(authSessions.userId, userId), isNull(authSessions.revokedAt)))
    .returning({ id: authSessions.id });
  return rows.length > 0;
}

/** Deletes the sessions that expired before `at` (wall time; the game tick); returns how many. */
export async function deleteExpiredSessions(at: Date): Promise<number> {
  const db = await getDb();
  const gone = await db.delete(authSessions).where(lt(authSessions.expiresAt, at)).returning({ id: authSessions.id });
  return gone.length;
}
