/**
 * Who is calling: the bearer header or the web session cookie, verified and mapped to a user
 * (provisioned on first sight). Administrators are users flagged isAdmin or whose subject is in
 * ADMIN_SUBJECTS; moderators are users flagged isModerator (or administrators). A banned user's
 * token still identifies them: the operation core refuses their writes (USER_BANNED), not their reads.
 */
import 'server-only';
import { env } from '@/lib/env';
import { provisionUser } from '@/lib/users/service/provision-user';
import type { TUserRow } from '@/db/schema';
import { verifyAccessToken, type TTokenClaims } from './jwt';

export const SESSION_COOKIE = 'pm_session';

export type TPrincipal = {
  userId: string;
  subject: string;
  username: string;
  isAdmin: boolean;
  isAgent: boolean;
  /** Works the report queue; every administrator is one. */
  isModerator: boolean;
  isBanned: boolean;
  /** How the request was authenticated; cookie-authenticated writes need a same-origin check. */
  via: 'bearer' | 'cookie';
  user: TUserRow;
};

/** The user a verified token stands for, provisioned on first sight (banned or not). */
export const userForClaims = async (claims: TTokenClaims): Promise<TUserRow> =>
  provisionUser({
    subject: claims.subject,
    email: claims.email,
    name: claims.name,
    preferredUsername: claims.preferredUsername,
    isAgent: claims.isAgent,
  });

export type TCredentials = { token: string; via: 'bearer' | 'cookie' };

/** The token a request carries: the Authorization header wins over the cookie. */
export const readCredentials = (headers: Headers, cookie: (name: string) => string | undefined): TCredentials | null => {
  const auth = headers.get('authorization');
  if (auth) {
    const m = auth.match(/^Bearer\s+(.+)$/i);
    return m ? { token: m[1]!.trim(), via: 'bearer' } : { token: '', via: 'bearer' };
  }
  const c = cookie(SESSION_COOKIE);
  return c ? { token: c, via: 'cookie' } : null;
};

/**
 * The verified claims of a request's token, or null when it is missing or invalid. Cheap (a
 * verified token is remembered until it expires), so the route wrapper can rate-limit by the
 * token's subject and refuse bad input before it spends a database round trip on the user.
 */
export const verifyCredentials = async (cred: TCredentials | null): Promise<TTokenClaims | null> =>
  cred?.token ? verifyAccessToken(cred.token) : null;

/** The principal for verified claims: the user, provisioned on first sight. */
export const principalFor = async (claims: TTokenClaims, via: TCredentials['via']): Promise<TPrincipal> => {
  const user = await userForClaims(claims);
  const isAdmin = user.isAdmin || env().adminSubjects.has(claims.subject);
  return {
    userId: user.id,
    subject: claims.subject,
    username: user.username,
    isAdmin,
    isAgent: user.isAgent,
    isModerator: isAdmin || user.isModerator,
    isBanned: user.isBanned,
    via,
    user,
  };
};

/** The principal for a token, or null when it is invalid. Provisions the user on first sight. */
export const resolvePrincipal = async (cred: TCredentials): Promise<TPrincipal | null> => {
  const claims = await verifyCredentials(cred);
  if (!claims) return null;
  return principalFor(claims, cred.via);
};
