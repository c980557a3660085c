/**
 * Sign-in flows: the web session (an access token kept in an HttpOnly cookie), the development
 * sign-in (mints a token for any username, never in production) and agent credentials.
 */
import 'server-only';
import { NextResponse } from 'next/server';
import { env } from '@/lib/env';
import { AppError } from '@/lib/errors/app-error';
import { provisionUser } from '@/lib/users/service/provision-user';
import { signSessionToken, verifyAccessToken } from './jwt';
import { secretsEqual } from './secrets';
import { SESSION_COOKIE, userForClaims } from './principal';

const DEV_SESSION_SECONDS = 7 * 24 * 3600;
const AGENT_SESSION_SECONDS = 24 * 3600;

/** Verifies an access token and returns the user it stands for. */
export const signInWithToken = async (token: string) => {
  const claims = await verifyAccessToken(token);
  if (!claims) throw new AppError('UNAUTHORIZED', 'Invalid or expired token');
  const user = await userForClaims(claims);
  return { user: { id: user.id, username: user.username } };
};

/** Development sign-in: a token for `username`; the same username always maps to the same user. */
export const devSignIn = async (username: string) => {
  if (env().isProduction) throw new AppError('NOT_FOUND', 'Not found');
  const { token } = await signSessionToken({
    subject: `dev:${username.toLowerCase()}`,
    preferredUsername: username,
    expiresInSeconds: DEV_SESSION_SECONDS,
  });
  const { user } = await signInWithToken(token);
  return { token, user };
};

/** Agent credentials (AGENT_CREDENTIALS) for a bearer session token acting as the agent's user. */
export const authenticateAgent = async (agentId: string, agentSecret: string) => {
  const expected = env().agentCredentials.get(agentId);
  if (!expected || !secretsEqual(agentSecret, expected)) {
    throw new AppError('UNAUTHORIZED', 'Invalid agent credentials');
  }
  const { token, expiresAt } = await signSessionToken({
    subject: `agent:${agentId}`,
    preferredUsername: agentId,
    agent: true,
    expiresInSeconds: AGENT_SESSION_SECONDS,
  });
  await provisionUser({ subject: `agent:${agentId}`, preferredUsername: agentId, isAgent: true });
  return { sessionToken: token, expiresAt: expiresAt.toISOString() };
};

/** A JSON answer that sets (token) or clears (null) the session cookie. */
export const sessionCookieResponse = (req: Request, body: object, token: string | null) => {
  const res = NextResponse.json(body);
  const proto = req.headers.get('x-forwarded-proto') ?? new URL(req.url).protocol.replace(':', '');
  res.cookies.set(SESSION_COOKIE, token ?? '', {
    httpOnly: true,
    sameSite: 'lax',
    secure: proto === 'https',
    path: '/',
    maxAge: token ? DEV_SESSION_SECONDS : 0,
  });
  return res;
};
