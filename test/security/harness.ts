/**
 * What every security test uses: the two production servers of ./global-setup.ts (one per
 * database, for describe.each), tokens minted as an outside party would (or could not) mint
 * them, players, a web sign-in that yields the session cookie, and requests that look as a
 * browser's would from our own site or from another one. Requests go over real HTTP to
 * `node server.mjs`; state is read back through the API, so the same check runs on both databases.
 */
import { SignJWT, decodeJwt } from 'jose';
import { inject, expect } from 'vitest';
import { requestJson, type TJsonResponse } from '../ops/servers';

export type TTarget = { name: 'postgres' | 'pglite'; base: string; dataDir: string };

export type TSecurityContext = {
  servers: TTarget[];
  secrets: { session: string; jwt: string; cron: string };
  adminSubject: string;
  /** A pair of AGENT_CREDENTIALS: its session token shows what our own session tokens look like. */
  agent: { id: string; secret: string };
  /** PUBLIC_BASE_URL of both servers: our own origin, as a browser on the site sends it in Origin. */
  publicBaseUrl: string;
};

declare module 'vitest' {
  export interface ProvidedContext {
    security: TSecurityContext;
  }
}

export const security = () => inject('security');

/** The servers, as describe.each takes them: `describe.each(targets())('$name', (t) => …)`. */
export const targets = () => security().servers;

/** A foreign site, as a browser names it in Origin. */
export const EVIL_ORIGIN = 'https://evil.example';

let counter = 0;
/** A name unique to this run (subjects, usernames: 3 to 20 letters, digits or underscores). */
export const unique = (prefix: string) => `${prefix}${process.pid.toString(36)}${(++counter).toString(36)}${Math.random().toString(36).slice(2, 5)}`.slice(0, 20);

/**
 * An HS256 token with exactly these claims, signed with `secret` (AUTH_JWT_SECRET unless said):
 * `expiresIn: null` leaves `exp` out. Valid player tokens and forgeries come from the same place.
 */
export const mint = async (opts: {
  subject: string;
  secret?: string;
  /** A jose duration ('2h'), an absolute time in seconds since the epoch, or null for no `exp`. */
  expiresIn?: string | number | null;
  claims?: Record<string, unknown>;
}) => {
  const jwt = new SignJWT(opts.claims ?? {}).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject(opts.subject).setIssuedAt();
  if (opts.expiresIn !== null) jwt.setExpirationTime(opts.expiresIn ?? '2h');
  return jwt.sign(new TextEncoder().encode(opts.secret ?? security().secrets.jwt));
};

/** An unsecured token (`alg: none`), as RFC 7519 allows and no verifier may accept. */
export const unsignedToken = (claims: Record<string, unknown>) => {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.`;
};

/** An address of our own choosing, as the trusted proxy (one hop) appends it to X-Forwarded-For. */
let addressCounter = 0;
export const clientAddress = () => `198.51.100.${(++addressCounter % 250) + 1}`;

/**
 * A JSON request to `t`: the parsed body, status and headers (test/ops/servers.ts requestJson).
 * Every request names a client address through the trusted proxy hop (X-Forwarded-For), so that
 * anonymous rate limits and the bad-input budget of one test never spill into another's.
 */
export const call = <T = any>(
  t: TTarget,
  pathAndQuery: string,
  init: { method?: string; token?: string; body?: unknown; headers?: Record<string, string>; address?: string } = {},
): Promise<TJsonResponse<T>> =>
  requestJson<T>(`${t.base}${pathAndQuery}`, {
    method: init.method,
    token: init.token,
    body: init.body,
    headers: { 'x-forwarded-for': init.address ?? clientAddress(), ...init.headers },
  });

/** A request with a raw body and exactly the headers given (no content type unless one is named). */
export const callRaw = async (
  t: TTarget,
  pathAndQuery: string,
  init: { method?: string; body?: string | Uint8Array | FormData; headers?: Record<string, string> },
): Promise<TJsonResponse> => {
  const res = await fetch(`${t.base}${pathAndQuery}`, {
    method: init.method ?? 'POST',
    // A Uint8Array body makes fetch send no Content-Type at all; a string would be text/plain.
    body: init.body as BodyInit | undefined,
    headers: { 'x-forwarded-for': clientAddress(), ...init.headers },
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body, headers: res.headers };
};

/** A refusal in the error envelope: status, JSON, `success: false`, and the code when named. */
export const expectRefused = (res: TJsonResponse, status: number, code?: string) => {
  const what = `${res.status} ${JSON.stringify(res.body).slice(0, 400)}`;
  expect(res.status, what).toBe(status);
  expect(res.headers.get('content-type') ?? '', what).toMatch(/^application\/json/);
  expect(res.body?.success, what).toBe(false);
  expect(typeof res.body?.error?.code, what).toBe('string');
  if (code) expect(res.body.error.code, what).toBe(code);
};

/** A success: the status and `success: true`. */
export const expectOk = <T = any>(res: TJsonResponse<T>, status = 200): T => {
  expect(res.status, `${res.status} ${JSON.stringify(res.body).slice(0, 400)}`).toBe(status);
  return res.body;
};

export type TPlayer = { token: string; id: string; username: string; subject: string };

/** A fresh player: a token for a new subject, provisioned by its first request. */
export const newPlayer = async (t: TTarget, label = 'p'): Promise<TPlayer> => {
  const subject = unique(`sec-${label}-`);
  const token = await mint({ subject });
  const me = expectOk(await call(t, '/api/users/me', { token }));
  return { token, id: me.user.id, username: me.user.username, subject };
};

/** The administrator of ADMIN_SUBJECTS, with a valid token. */
export const adminToken = () => mint({ subject: security().adminSubject });

/** The headers of a request from a page of our own site (what a browser sends on a same-origin fetch). */
export const sameSite = () => ({ origin: security().publicBaseUrl, 'sec-fetch-site': 'same-origin' });

/** The headers of a request another site's page makes the browser send. */
export const crossSite = () => ({ origin: EVIL_ORIGIN, 'sec-fetch-site': 'cross-site' });

export type TSessionCookie = {
  name: string;
  value: string;
  /** `name=value`, as a Cookie header carries it. */
  header: string;
  attributes: string[];
  maxAge?: number;
};

/** The session cookie a response sets (the one whose name says session), or undefined. */
export const sessionCookieOf = (res: TJsonResponse): TSessionCookie | undefined => {
  for (const raw of res.headers.getSetCookie()) {
    const [pair, ...attrs] = raw.split(';').map((s) => s.trim());
    const eq = pair!.indexOf('=');
    const name = pair!.slice(0, eq);
    if (!/session/i.test(name)) continue;
    const value = pair!.slice(eq + 1);
    const maxAge = attrs.find((a) => /^max-age=/i.test(a));
    return { name, value, header: `${name}=${value}`, attributes: attrs, maxAge: maxAge ? Number(maxAge.split('=')[1]) : undefined };
  }
  return undefined;
};

/** Web sign-in from our own site with a valid token: the session cookie it sets. */
export const signIn = async (t: TTarget, token: string): Promise<TSessionCookie> => {
  const res = await call(t, '/api/auth/session', { body: { token }, headers: sameSite() });
  expectOk(res);
  const cookie = sessionCookieOf(res);
  expect(cookie?.value, `no session cookie in ${JSON.stringify(res.headers.getSetCookie())}`).toBeTruthy();
  return cookie!;
};

/** The claims of a token we did not sign ourselves (our own session tokens), or null when it is not a JWT. */
export const claimsOf = (token: string): Record<string, unknown> | null => {
  try {
    return decodeJwt(token);
  } catch {
    return null;
  }
};

/** A JSON-RPC call on POST /api/a2a: the whole JSON-RPC answer. */
export const a2a = async (t: TTarget, token: string, method: string, params: Record<string, unknown>) => {
  const res = await call(t, '/api/a2a', { token, body: { jsonrpc: '2.0', id: 1, method, params } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { result?: any; error?: { code: number; message: string; data?: any } };
};

/** A player's own posts (their count is what a refused post must leave alone). */
export const postsOf = async (t: TTarget, userId: string) => {
  const res = expectOk(await call(t, `/api/users/${userId}/posts?limit=50`));
  return res.posts as { id: string; imageUrl: string | null }[];
};

/** The caller as GET /api/users/me answers (bearer). */
export const me = async (t: TTarget, token: string) => expectOk(await call(t, '/api/users/me', { token })).user;

/** A small real PNG (sharp, as the service decodes it). */
export const pngBytes = async (color = '#3366ff') => {
  const { default: sharp } = await import('sharp');
  return new Uint8Array(await sharp({ create: { width: 16, height: 16, channels: 3, background: color } }).png().toBuffer());
};

/** POST /api/upload/image with `bytes` as the file `name` declared as `type`: the raw answer. */
export const uploadFile = (t: TTarget, token: string, bytes: Uint8Array, name: string, type: string) => {
  const form = new FormData();
  form.append('file', new Blob([bytes as BlobPart], { type }), name);
  form.append('type', 'post');
  return callRaw(t, '/api/upload/image', { body: form, headers: { authorization: `Bearer ${token}` } });
};
