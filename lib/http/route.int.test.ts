import { describe, expect, it, beforeEach, vi } from 'vitest';
import { z } from 'zod';
import { seedUser } from '@/test/factories';
import { SESSION_COOKIE } from '@/lib/principals/principal';
import { defineEndpoint } from '@/lib/contracts/endpoint';
import { call, tokenFor, tokenForSubject } from '@/test/http';
import { AppError } from '@/lib/errors/app-error';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { INVALID_TARGET_HEADER } from './node-guard.mjs';
import { route } from './route';

const echo = defineEndpoint({
  id: 'test.echo',
  method: 'POST',
  path: '/api/test/{id}',
  summary: 'echo',
  tag: 'test',
  auth: 'user',
  requires: ['social'],
  params: z.object({ id: z.string().regex(/^\d+$/) }),
  query: z.object({ n: z.coerce.number().int().max(10).default(1) }),
  body: z.object({ text: z.string().min(1) }),
  response: z.object({ success: z.literal(true), id: z.string(), n: z.number(), text: z.string(), userId: z.string() }),
});
const echoHandler = route(echo, async ({ params, query, body, principal }) => ({
  id: params.id,
  n: query.n,
  text: body.text,
  userId: principal.userId,
}));

const failing = defineEndpoint({
  id: 'test.fail',
  method: 'GET',
  path: '/api/test/fail',
  summary: 'fail',
  tag: 'test',
  auth: 'public',
  requires: ['read'],
  query: z.object({ kind: z.enum(['app', 'crash', 'drift']) }),
  response: z.object({ success: z.literal(true), ok: z.boolean() }),
  errors: ['INSUFFICIENT_BALANCE'],
});
const failingHandler = route(failing, async ({ query }) => {
  if (query.kind === 'app') throw new AppError('INSUFFICIENT_BALANCE', 'Insufficient balance', { required: '5', available: '1' });
  if (query.kind === 'crash') throw new Error('relation "users" does not exist at SELECT secret_column');
  return { ok: 'yes' } as never;
});

const adminOnly = defineEndpoint({
  id: 'test.admin',
  method: 'GET',
  path: '/api/test/admin',
  summary: 'admin',
  tag: 'test',
  auth: 'user',
  requires: ['read', 'admin'],
  response: z.object({ success: z.literal(true) }),
});
const adminHandler = route(adminOnly, async () => ({}));

const publicRead = defineEndpoint({
  id: 'test.read',
  method: 'GET',
  path: '/api/test/read',
  summary: 'read',
  tag: 'test',
  auth: 'user',
  requires: ['read'],
  response: z.object({ success: z.literal(true), userId: z.string() }),
});
const publicReadHandler = route(publicRead, async ({ caller }) => ({ userId: caller.userId }));

const limited = defineEndpoint({
  id: 'test.limited',
  method: 'GET',
  path: '/api/test/limited',
  summary: 'limited',
  tag: 'test',
  auth: 'public',
  requires: ['read'],
  rateLimit: 'report',
  response: z.object({ success: z.literal(true) }),
});
const limitedHandler = route(limited, async () => ({}));

/** A GET that writes, as the legacy onboarding GET does: counts the calls that reached it. */
let getWrites = 0;
const writingGet = defineEndpoint({
  id: 'test.writingGet',
  method: 'GET',
  path: '/api/test/writing-get',
  summary: 'a GET that writes',
  tag: 'test',
  auth: 'user',
  requires: ['read', 'account'],
  writesOnGet: true,
  response: z.object({ success: z.literal(true) }),
});
const writingGetHandler = route(writingGet, async () => {
  getWrites++;
  return {};
});

/** A sign-in, checked for its origin with or without a cookie. */
let signIns = 0;
const signIn = defineEndpoint({
  id: 'test.signIn',
  method: 'POST',
  path: '/api/test/sign-in',
  summary: 'sign in',
  tag: 'test',
  auth: 'public',
  requires: ['account'],
  sameOrigin: 'always',
  body: z.strictObject({ token: z.string() }),
  response: z.object({ success: z.literal(true) }),
});
const signInHandler = route(signIn, async () => {
  signIns++;
  return {};
});

describe('route() wrapper', () => {
  beforeEach(() => setLimiter(createMemoryLimiter()));

  it('parses params, query and body and answers with success: true', async () => {
    const user = await seedUser();
    const res = await call(echoHandler, '/api/test/42', {
      method: 'POST',
      token: await tokenFor(user),
      params: { id: '42' },
      query: { n: 3 },
      body: { text: 'hi' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, id: '42', n: 3, text: 'hi', userId: user.id });
    expect(res.headers.get('x-ratelimit-limit')).toBe('1000');
    expect(Number(res.headers.get('x-ratelimit-remaining'))).toBe(999);
    expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
  });

  it('401 UNAUTHORIZED without a token, with a bad token, and with a token signed by another secret', async () => {
    for (const token of [undefined, 'not-a-jwt', await tokenForSubject('x', {}, { secret: 'other-secret' })]) {
      const res = await call(echoHandler, '/api/test/1', { method: 'POST', token, params: { id: '1' }, body: { text: 'a' } });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
      expect(res.headers.get('x-ratelimit-limit')).toBe('100');
    }
  });

  it('400 INVALID_PARAMETER for bad params or query, VALIDATION_ERROR with details for a bad body', async () => {
    const token = await tokenFor(await seedUser());
    const badParam = await call(echoHandler, '/api/test/x', { method: 'POST', token, params: { id: 'x' }, body: { text: 'a' } });
    expect(badParam.status).toBe(400);
    expect(badParam.body.error.code).toBe('INVALID_PARAMETER');
    const badQuery = await call(echoHandler, '/api/test/1', { method: 'POST', token, params: { id: '1' }, query: { n: 99 }, body: { text: 'a' } });
    expect(badQuery.body.error.code).toBe('INVALID_PARAMETER');
    const badBody = await call(echoHandler, '/api/test/1', { method: 'POST', token, params: { id: '1' }, body: { text: '' } });
    expect(badBody.status).toBe(400);
    expect(badBody.body.error.code).toBe('VALIDATION_ERROR');
    expect(badBody.body.error.details.issues[0].path).toBe('text');
    const notJson = await call(echoHandler, '/api/test/1', { method: 'POST', token, params: { id: '1' }, body: '{oops' });
    expect(notJson.status).toBe(400);
    expect(notJson.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('maps AppError to its status and hides everything internal behind a 500 with a request id', async () => {
    const app = await call(failingHandler, '/api/test/fail', { query: { kind: 'app' } });
    expect(app.status).toBe(400);
    expect(app.body).toEqual({
      success: false,
      error: { code: 'INSUFFICIENT_BALANCE', message: 'Insufficient balance', details: { required: '5', available: '1' } },
    });
    const crash = await call(failingHandler, '/api/test/fail', { query: { kind: 'crash' } });
    expect(crash.status).toBe(500);
    expect(crash.body.error.code).toBe('INTERNAL_ERROR');
    expect(JSON.stringify(crash.body)).not.toMatch(/secret_column|relation|SELECT/);
    expect(crash.body.error.details.requestId).toBe(crash.headers.get('x-request-id'));
  });

  it('fails a response that breaks its contract (in tests)', async () => {
    const drift = await call(failingHandler, '/api/test/fail', { query: { kind: 'drift' } });
    expect(drift.status).toBe(500);
  });

  it('403 FORBIDDEN on admin routes for non-admins; admins by flag or by ADMIN_SUBJECTS', async () => {
    const plain = await seedUser();
    expect((await call(adminHandler, '/api/test/admin', { token: await tokenFor(plain) })).status).toBe(403);
    const flagged = await seedUser({ isAdmin: true });
    expect((await call(adminHandler, '/api/test/admin', { token: await tokenFor(flagged) })).status).toBe(200);
    const { resetEnvCache } = await import('@/lib/env');
    process.env.ADMIN_SUBJECTS = 'root-subject, other';
    resetEnvCache();
    try {
      expect((await call(adminHandler, '/api/test/admin', { token: await tokenForSubject('root-subject') })).status).toBe(200);
    } finally {
      delete process.env.ADMIN_SUBJECTS;
      resetEnvCache();
    }
  });

  it('answers 429 RATE_LIMIT_EXCEEDED past the rule, counting anonymous callers per address', async () => {
    for (let i = 0; i < 5; i++) {
      const ok = await call(limitedHandler, '/api/test/limited', { ip: '198.51.100.1' });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('x-ratelimit-remaining')).toBe(String(4 - i));
    }
    const blocked = await call(limitedHandler, '/api/test/limited', { ip: '198.51.100.1' });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(blocked.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(blocked.headers.get('retry-after')).toBeTruthy();
    // Another address has its own counter; a spoofed X-Forwarded-For does not move the caller.
    expect((await call(limitedHandler, '/api/test/limited', { ip: '198.51.100.2' })).status).toBe(200);
    const spoofed = await call(limitedHandler, '/api/test/limited', { ip: '198.51.100.1', headers: { 'x-forwarded-for': '1.2.3.4' } });
    expect(spoofed.status).toBe(429);
  });

  it('accepts the session cookie, but refuses a cookie-authenticated write from another origin', async () => {
    const user = await seedUser();
    const cookie = `${SESSION_COOKIE}=${await tokenFor(user)}`;
    const opts = { method: 'POST', cookie, params: { id: '1' }, body: { text: 'a' } };
    const sameOrigin = await call(echoHandler, '/api/test/1', { ...opts, headers: { origin: 'http://localhost:3000' } });
    expect(sameOrigin.status).toBe(200);
    expect(sameOrigin.body.userId).toBe(user.id);
    const crossSite = await call(echoHandler, '/api/test/1', { ...opts, headers: { origin: 'https://evil.example' } });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.error.code).toBe('FORBIDDEN');
    const noOrigin = await call(echoHandler, '/api/test/1', opts);
    expect(noOrigin.status).toBe(403);
    // A bearer token needs no origin check: it cannot be sent by another site on its own.
    const bearer = await call(echoHandler, '/api/test/1', { ...opts, cookie: undefined, token: await tokenFor(user), headers: { origin: 'https://evil.example' } });
    expect(bearer.status).toBe(200);
  });

  it('a GET flagged as writing answers a cookie caller only from our own page (Sec-Fetch-Site: same-origin); bearer callers always', async () => {
    const user = await seedUser();
    const cookie = `${SESSION_COOKIE}=${await tokenFor(user)}`;
    const before = getWrites;
    const refused: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'none' },
      {},
      { origin: 'http://localhost:3000' },
      // An <img> or a link planted on one of our own pages: same-origin, but not our script's fetch.
      { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' },
      { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
    ];
    for (const headers of refused) {
      const res = await call(writingGetHandler, '/api/test/writing-get', { cookie, headers });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
      expect(res.headers.get('x-ratelimit-limit')).toBeTruthy();
    }
    expect(getWrites).toBe(before);
    expect((await call(writingGetHandler, '/api/test/writing-get', { cookie, headers: { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' } })).status).toBe(200);
    expect((await call(writingGetHandler, '/api/test/writing-get', { token: await tokenFor(user), headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(200);
    expect(getWrites).toBe(before + 2);
    // An ordinary GET is not held to it: reading from anywhere is fine.
    expect((await call(publicReadHandler, '/api/test/read', { cookie, headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(200);
  });

  it("sign-in (sameOrigin: 'always') refuses a foreign Origin or cross-site fetch metadata without any cookie; non-browser clients and our own page pass", async () => {
    const before = signIns;
    const refused: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'null' },
    ];
    for (const headers of refused) {
      const res = await call(signInHandler, '/api/test/sign-in', { method: 'POST', body: { token: 't' }, headers });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
    expect(signIns).toBe(before);
    const allowed: Record<string, string>[] = [{}, { origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' }, { origin: 'http://localhost:3000' }];
    for (const headers of allowed) {
      expect((await call(signInHandler, '/api/test/sign-in', { method: 'POST', body: { token: 't' }, headers })).status, JSON.stringify(headers)).toBe(200);
    }
    expect(signIns).toBe(before + 3);
  });

  it('400 INVALID_PARAMETER in the envelope for a path or query that does not decode, with the usual headers, logged with its request id', async () => {
    const token = await tokenFor(await seedUser());
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      for (const target of ['/api/test/%FF', '/api/test/%C0%AF', '/api/test/%ED%A0%80', '/api/test/%00', '/api/test/1%', '/api/test/1?q=%FF', '/api/test/1?%E2%82=1', '/api/test/1?q=%00']) {
        const res = await call(echoHandler, target, { method: 'POST', token, params: { id: '1' }, body: { text: 'a' } });
        expect(res.status, target).toBe(400);
        expect(res.body.error.code, target).toBe('INVALID_PARAMETER');
        expect(res.headers.get('content-type')).toBe('application/json');
        expect(res.headers.get('x-ratelimit-limit')).toBe('1000');
        const id = res.headers.get('x-request-id')!;
        expect(warn.mock.calls.some((c) => String(c[0]).includes(id)), `${target} logged with ${id}`).toBe(true);
      }
      // What server.mjs flagged before Next could route it arrives on a clean path with the reason.
      const flagged = await call(echoHandler, '/api/_invalid-request-target', { method: 'POST', token, params: { id: '1' }, body: { text: 'a' }, headers: { [INVALID_TARGET_HEADER]: 'a path segment holds an encoded NUL' } });
      expect(flagged.status).toBe(400);
      expect(flagged.body.error.message).toMatch(/encoded NUL/);
    } finally {
      warn.mockRestore();
    }
    // Encoded text that decodes is fine, a literal % included (%25).
    const ok = await call(echoHandler, '/api/test/1?q=%E2%82%AC%25+x', { method: 'POST', token, params: { id: '1' }, body: { text: 'a' } });
    expect(ok.status).toBe(200);
  });

  it("refuses a banned user's writes (403 USER_BANNED) but still serves their reads", async () => {
    const banned = await seedUser({ isBanned: true });
    const token = await tokenFor(banned);
    const res = await call(echoHandler, '/api/test/1', { method: 'POST', token, params: { id: '1' }, body: { text: 'a' } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('USER_BANNED');
    const read = await call(publicReadHandler, '/api/test/read', { token });
    expect(read.status).toBe(200);
  });
});
