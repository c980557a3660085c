import { describe, expect, it, beforeEach } from 'vitest';
import { z } from 'zod';
import { seedUser } from '@/test/factories';
import { SESSION_COOKIE } from '@/lib/auth/principal';
import { defineEndpoint } from '@/lib/contracts/endpoint';
import { call, tokenFor, tokenForSubject } from '@/test/http';
import { AppError } from '@/lib/errors/app-error';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { route } from './route';

const echo = defineEndpoint({
  id: 'test.echo',
  method: 'POST',
  path: '/api/test/{id}',
  summary: 'echo',
  tag: 'test',
  auth: 'user',
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
  auth: 'admin',
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
  rateLimit: 'report',
  response: z.object({ success: z.literal(true) }),
});
const limitedHandler = route(limited, async () => ({}));

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
