/**
 * Who is calling: the bearer header or the web session cookie, verified and mapped to a user
 * (provisioned on first sight). Administrators are users flagged isAdmin or whose subject is in
 * ADMIN_SUBJECTS; moderators are users flagged isModerator (or administrators). A principal
 * carries the permissions of its role (lib/auth/permissions.ts); the operation core checks that
 * set, which an API key's scopes will narrow. A banned user's token still identifies them: the
 * operation core refuses their writes (USER_BANNED), not their reads.
 * One of the service's own session tokens counts only while its session is live (lib/auth/sessions.ts):
 * a revoked one is no credential at all, as a bearer (401) or a cookie (a visitor).
 */
import 'server-only';
import { now } from '@/lib/clock/clock';
import { env } from '@/lib/env';
import { provisionUser } from '@/lib/users/service/provision-user';
import type { TUserRow } from '@/db/schema';
import { verifyAccessToken, type TTokenClaims } from '@/lib/auth/jwt';
import { permissionsOf, roleOf, type TPermission } from '@/lib/auth/permissions';
import { sessionCookieName } from '@/lib/auth/session-names';
import { findSessionUser } from '@/lib/auth/sessions';
import { findKeyCredential, isApiKeySecret, type TApiKeyGrant } from '@/lib/auth/api-key-credentials';

/** The session cookie's name outside production (tests, development); `__Host-pm_session` in production. */
export { SESSION_COOKIE, SESSION_COOKIE_SECURE } from '@/lib/auth/session-names';

export type TPrincipal = {
  userId: string;
  subject: string;
  username: string;
  isAdmin: boolean;
  isAgent: boolean;
  /** Works the report queue; every administrator is one. */
  isModerator: boolean;
  isBanned: boolean;
  /**
   * What the caller may do: what the operation core checks against an operation's `requires`.
   * Today the permissions of the caller's role; a call made with an API key will carry the
   * key's scopes here instead (never more than the role's).
   */
  permissions: ReadonlySet<TPermission>;
  /** How the request was authenticated; cookie-authenticated writes need a same-origin check. */
  via: 'bearer' | 'cookie';
  /** The caller's session (auth_sessions id) when the credential is one of our session tokens. */
  sessionId?: string;
  /** The API key the request was made with: `permissions` are then its scopes (never more than the role's). */
  apiKey?: TApiKeyGrant;
  user: TUserRow;
  /** What the operation's caller read (TCallerRead) returned with `user`, when it was used. */
  preloaded?: { read: TCallerRead; value: unknown };
};

/**
 * A read an operation makes of its own caller, keyed by the token's subject, that returns the
 * caller's users row too (route(…, { callerRead })): the principal's row then comes with the
 * operation's read in one round trip, and the operation finds its value in `principal.preloaded`
 * (GET /api/users/me: the row, the account's numbers and the stats in one statement). It is not
 * used when the credential's own lookup (a session, an API key) loaded the row already, and on a
 * subject's first sight (undefined) the account is provisioned as always.
 */
export type TCallerRead<T = unknown> = (subject: string) => Promise<{ user: TUserRow; value: T } | undefined>;

/** The user a verified token stands for, provisioned on first sight (banned or not). */
export async function userForClaims(claims: TTokenClaims): Promise<TUserRow> {
  return provisionUser({
    subject: claims.subject,
    email: claims.email,
    name: claims.name,
    preferredUsername: claims.preferredUsername,
    isAgent: claims.isAgent,
  });
}

export type TCredentials = { token: string; via: 'bearer' | 'cookie' };

/** The token a request carries: the Authorization header wins over the cookie. */
export function readCredentials(headers: Headers, cookie: (name: string) => string | undefined): TCredentials | null {
  const auth = headers.get('authorization');
  if (auth) {
    const m = auth.match(/^Bearer\s+(.+)$/i);
    return m ? { token: m[1]!.trim(), via: 'bearer' } : { token: '', via: 'bearer' };
  }
  // Only this mode's name: a plain `pm_session` is never read in production, where the cookie is
  // `__Host-` and so cannot have been planted by a subdomain or over plain http.
  const c = cookie(sessionCookieName(env().isProduction));
  return c ? { token: c, via: 'cookie' } : null;
}

/**
 * Verified claims of a request, with the user already loaded when the credential is one of our
 * session tokens (its session lookup reads the user too). Per request: never cached.
 */
export type TVerifiedClaims = TTokenClaims & { sessionUser?: TUserRow; apiKey?: TApiKeyGrant };

/** A key never expires in its claims unless it has an expiry: the far future, in seconds. */
const NO_EXPIRY_S = 253_402_300_799; // 9999-12-31T23:59:59Z

/**
 * The verified claims of a request's token, or null when it is missing or invalid. An external
 * token costs no database round trip (a verified token is remembered until it expires), so the
 * route wrapper can rate-limit by the token's subject and refuse bad input before it loads the
 * user. One of our session tokens costs one indexed lookup, which also loads the user, so that
 * principalFor does not: its session must be live on every request, on every instance.
 */
export async function verifyCredentials(cred: TCredentials | null): Promise<TVerifiedClaims | null> {
  if (!cred?.token) return null;
  if (isApiKeySecret(cred.token)) {
    // An API key is a bearer credential only: a cookie never carries one.
    if (cred.via !== 'bearer') return null;
    const found = await findKeyCredential(cred.token);
    // A key stands for a player who signs in (NPC and pool accounts have no subject and no keys).
    if (!found?.user.authSubject) return null;
    return {
      subject: found.user.authSubject,
      isAgent: found.user.isAgent,
      exp: found.expiresAt ? Math.floor(found.expiresAt.getTime() / 1000) : NO_EXPIRY_S,
      sessionUser: found.user,
      apiKey: found.grant,
    };
  }
  const claims = await verifyAccessToken(cred.token);
  if (!claims?.sessionId) return claims;
  const sessionUser = await findSessionUser(claims.sessionId, claims.subject);
  return sessionUser ? { ...claims, sessionUser } : null;
}

/** The principal for verified claims: the user, provisioned on first sight (read with `callerRead` when one is given). */
export async function principalFor(claims: TVerifiedClaims, via: TCredentials['via'], callerRead?: TCallerRead): Promise<TPrincipal> {
  let user = claims.sessionUser;
  let preloaded: TPrincipal['preloaded'];
  if (!user && callerRead) {
    const got = await callerRead(claims.subject);
    if (got) {
      user = got.user;
      preloaded = { read: callerRead, value: got.value };
    }
  }
  user ??= await userForClaims(claims);
  // A key never acts as a moderator or administrator (CONTRACT.md "API keys"), whoever owns it.
  const isAdmin = !claims.apiKey && (user.isAdmin || env().adminSubjects.has(claims.subject));
  const isModerator = !claims.apiKey && (isAdmin || user.isModerator);
  const rolePermissions = permissionsOf(roleOf({ isAdmin, isModerator }));
  return {
    userId: user.id,
    subject: claims.subject,
    username: user.username,
    isAdmin,
    isAgent: user.isAgent,
    isModerator,
    // A temporary ban whose end has passed no longer binds, even before the tick lifts it (issue 35).
    isBanned: user.isBanned && (user.bannedUntil == null || new Date(user.bannedUntil).getTime() > now().getTime()),
    // A key's calls may do what its scopes say and its owner's role allows, nothing more: never
    // `account` (keys, profile), `moderate` or `admin`.
    permissions: claims.apiKey ? new Set(claims.apiKey.scopes.filter((s) => rolePermissions.has(s))) : rolePermissions,
    via,
    sessionId: claims.sessionId,
    ...(claims.apiKey ? { apiKey: claims.apiKey } : {}),
    user,
    ...(preloaded ? { preloaded } : {}),
  };
}
