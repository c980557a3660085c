/**
 * Sign-in flows. Each one opens a session of the service's own (lib/auth/sessions.ts: a row and
 * a token signed with SESSION_SECRET): the web sign-in exchanges an identity provider's access
 * token for one (the cookie never holds the provider's token), the development sign-in mints one
 * for any username (never in production), agent credentials get a bearer one. Sign-out revokes
 * the caller's session and clears the cookie.
 *
 * The cookie: `__Host-pm_session`, Secure, HttpOnly, SameSite=Lax, Path=/, no Domain in
 * production; `pm_session` without Secure outside production (plain-http development). Its
 * Max-Age is the session token's remaining life, so the browser drops it when the token expires.
 */
import 'server-only';
import { NextResponse } from 'next/server';
import { env } from '@/lib/env';
import { AppError } from '@/lib/errors/app-error';
import { provisionUser } from '@/lib/users/service/provision-user';
import { verifyAccessToken } from '@/lib/auth/jwt';
import { userForClaims, type TPrincipal } from './principal';
import { secretsEqual } from '@/lib/auth/secrets';
import { sessionCookieName } from '@/lib/auth/session-names';
import { openSession, revokeSession } from '@/lib/auth/sessions';

/** The longest a web session lasts (and the development sign-in's session). */
const WEB_SESSION_SECONDS = 7 * 24 * 3600;
const AGENT_SESSION_SECONDS = 24 * 3600;

type TSession = { token: string; expiresAt: Date };

const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000);

/**
 * Web sign-in: verifies an identity provider's access token and opens a session of ours for the
 * same user. The session ends when the provider's token would have (at most WEB_SESSION_SECONDS):
 * signing in never stretches a credential's life. One of our own session tokens is not accepted
 * here (that would renew a session, copied or not, for ever).
 */
export async function signInWithToken(token: string) {
  const claims = await verifyAccessToken(token);
  if (!claims) throw new AppError('UNAUTHORIZED', 'Invalid or expired token');
  if (claims.sessionId) throw new AppError('UNAUTHORIZED', "Sign in with your identity provider's access token, not a session token");
  const user = await userForClaims(claims);
  const expiresAt = new Date(Math.min(claims.exp * 1000, inSeconds(WEB_SESSION_SECONDS).getTime()));
  const session = await openSession({ user, kind: 'cookie', expiresAt });
  return { user: { id: user.id, username: user.username }, session };
}

/** Development sign-in: a session for `username`; the same username always maps to the same user. */
export async function devSignIn(username: string) {
  if (env().isProduction) throw new AppError('NOT_FOUND', 'Not found');
  const user = await provisionUser({ subject: `dev:${username.toLowerCase()}`, preferredUsername: username });
  const session = await openSession({ user, kind: 'cookie', expiresAt: inSeconds(WEB_SESSION_SECONDS) });
  return { user: { id: user.id, username: user.username }, session };
}

/** Agent credentials (AGENT_CREDENTIALS) for a bearer session token acting as the agent's user. */
export async function authenticateAgent(agentId: string, agentSecret: string) {
  const expected = env().agentCredentials.get(agentId);
  if (!expected || !secretsEqual(agentSecret, expected)) {
    throw new AppError('UNAUTHORIZED', 'Invalid agent credentials');
  }
  const user = await provisionUser({ subject: `agent:${agentId}`, preferredUsername: agentId, isAgent: true });
  const { token, expiresAt } = await openSession({ user, kind: 'agent', expiresAt: inSeconds(AGENT_SESSION_SECONDS) });
  return { sessionToken: token, expiresAt: expiresAt.toISOString() };
}

/**
 * Sign-out: revokes the caller's session when their credential is one of our session tokens (a
 * cookie, or an agent's bearer token), so a copy of the token stops working everywhere. Other
 * credentials (an identity provider's token) are the provider's to end.
 */
export async function signOut(principal: TPrincipal | null) {
  if (principal?.sessionId) await revokeSession(principal.sessionId, principal.userId);
  return { success: true as const };
}

/** A JSON answer that sets the session cookie (a session) or clears it (null). */
export function sessionCookieResponse(body: object, session: TSession | null) {
  const res = NextResponse.json(body);
  const isProduction = env().isProduction;
  const maxAge = session ? Math.max(0, Math.floor((session.expiresAt.getTime() - Date.now()) / 1000)) : 0;
  res.cookies.set(sessionCookieName(isProduction), session?.token ?? '', {
    httpOnly: true,
    sameSite: 'lax',
    // Production is served over https (Chromium also takes Secure cookies from http://localhost,
    // where the end-to-end suite runs the production build); development may be plain http.
    secure: isProduction,
    path: '/',
    maxAge,
  });
  return res;
}
