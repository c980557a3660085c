/**
 * Calls real route handlers the way Next.js does: a NextRequest in, a Response out, with the
 * path params as a promise. Tokens are minted with the test secret for a user's auth subject.
 */
import { SignJWT } from 'jose';
import { NextRequest } from 'next/server';
import type { TUserRow } from '@/db/schema';
import { env } from '@/lib/env';
import { createMemoryLimiter } from '@/lib/operations/rate-limit';

type THandler = (req: NextRequest, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

export type TCallOptions = {
  method?: string;
  token?: string;
  body?: unknown;
  params?: Record<string, string>;
  query?: Record<string, string | number>;
  headers?: Record<string, string>;
  cookie?: string;
  ip?: string;
};

export type TCallResult<T = any> = { status: number; body: T; headers: Headers };

export const call = async <T = any>(handler: THandler, path: string, opts: TCallOptions = {}): Promise<TCallResult<T>> => {
  const url = new URL(`http://localhost:3000${path}`);
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, String(v));
  const headers = new Headers(opts.headers);
  headers.set('host', 'localhost:3000');
  headers.set('x-client-socket-address', opts.ip ?? '203.0.113.7');
  if (opts.token) headers.set('authorization', `Bearer ${opts.token}`);
  if (opts.cookie) headers.set('cookie', opts.cookie);
  let body: BodyInit | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  }
  const req = new NextRequest(url, { method: opts.method ?? 'GET', headers, body });
  const res = await handler(req, { params: Promise.resolve(opts.params ?? {}) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
};

/** An HS256 access token for a subject, signed with the configured AUTH_JWT_SECRET. */
export const tokenForSubject = async (subject: string, claims: Record<string, unknown> = {}, opts: { secret?: string; expiresIn?: string } = {}) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(subject)
    .setIssuedAt()
    .setExpirationTime(opts.expiresIn ?? '1h')
    .sign(new TextEncoder().encode(opts.secret ?? env().jwtSecret!));

export const tokenFor = (user: TUserRow) => tokenForSubject(user.authSubject!);

/**
 * A memory rate limiter whose clock stands still in the middle of a window. Tests that count
 * requests up to a limit use it: on the real clock a loop can straddle a window boundary, where
 * the sliding-window estimate (floor of the previous window's weighted count) admits one more.
 */
export const pinnedLimiter = () => createMemoryLimiter(() => Date.UTC(2026, 0, 1, 0, 0, 30));
