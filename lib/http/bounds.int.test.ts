/**
 * The wrapper's bounds on hostile input (README "Limits and bad input"): bodies refused by size
 * before they are read, media types, nesting, text that PostgreSQL cannot store, URL and query
 * bounds, strict bodies, database data exceptions, deadlines that roll back, the JSON 404 and
 * 405, and the headers every answer carries.
 */
import { sql } from 'drizzle-orm';
import { NextRequest } from 'next/server';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { executePrepared, getDb, rowsOf, withTransaction } from '@/db/client';
import { seedUser } from '@/test/factories';
import { defineEndpoint } from '@/lib/contracts/endpoint';
import { call, tokenFor } from '@/test/http';
import { methodNotAllowedHandlers, notFoundHandlers } from './fallback';
import { DEFAULT_JSON_BODY_LIMIT, MAX_JSON_DEPTH, MAX_QUERY_PARAMS, MAX_URL_LENGTH } from './limits';
import { PENALTY_PAUSE_MS, createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { RATE_LIMITS } from '@/lib/contracts/rate-limits';
import { route, setResponseCheck } from './route';

const echo = defineEndpoint({
  id: 'test.bounds.echo',
  method: 'POST',
  path: '/api/test/{id}',
  summary: 'echo',
  tag: 'test',
  auth: 'user',
  requires: ['social'],
  params: z.object({ id: z.string().max(50) }),
  query: z.object({ q: z.string().max(50).optional() }),
  body: z.strictObject({ text: z.string().max(100).optional(), amount: z.number().positive().max(1000).optional(), deep: z.unknown().optional() }),
  fieldErrors: { amount: 'INVALID_TRADE_SIZE' },
  response: z.object({ success: z.literal(true), text: z.string().optional() }),
});
const echoHandler = route(echo, async ({ body }) => ({ text: body.text }));

const noBody = defineEndpoint({
  id: 'test.bounds.noBody',
  method: 'POST',
  path: '/api/test/nobody',
  summary: 'no body',
  tag: 'test',
  auth: 'user',
  requires: ['social'],
  response: z.object({ success: z.literal(true) }),
});
const noBodyHandler = route(noBody, async () => ({}));

const overflow = defineEndpoint({
  id: 'test.bounds.overflow',
  method: 'GET',
  path: '/api/test/overflow',
  summary: 'a value the database cannot hold',
  tag: 'test',
  auth: 'public',
  requires: ['read'],
  response: z.object({ success: z.literal(true) }),
});
const overflowHandler = route(overflow, async () => {
  await (await getDb()).execute(sql`select '1e30'::numeric(30, 8)`);
  return {};
});

const slow = defineEndpoint({
  id: 'test.bounds.slow',
  method: 'POST',
  path: '/api/test/slow',
  summary: 'a write that outlives its deadline',
  tag: 'test',
  auth: 'user',
  requires: ['social'],
  deadlineMs: 300,
  body: z.strictObject({ mode: z.enum(['transaction', 'statement']), tag: z.string().max(50) }),
  response: z.object({ success: z.literal(true) }),
});
/** Tags whose slow work has slept past the deadline: what the deadline's answer may wait for. */
const slept = new Set<string>();
const slowHandler = route(slow, async ({ body }) => {
  if (body.mode === 'transaction') {
    await withTransaction(async (tx) => {
      await tx.execute(sql`insert into bounds_probe (tag) values (${body.tag})`);
      await new Promise((r) => setTimeout(r, 600));
      slept.add(body.tag);
    });
  } else {
    await new Promise((r) => setTimeout(r, 600));
    slept.add(body.tag);
    await executePrepared(sql`insert into bounds_probe (tag) values (${body.tag})`);
  }
  return {};
});

/** A request with a raw body: bytes or a stream, and any headers (Content-Length included). */
const rawCall = async (handler: (req: NextRequest, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>, path: string, opts: { token?: string; body?: BodyInit; headers?: Record<string, string>; params?: Record<string, string>; method?: string }) => {
  const headers = new Headers(opts.headers);
  headers.set('host', 'localhost:3000');
  headers.set('x-client-socket-address', '203.0.113.9');
  if (opts.token) headers.set('authorization', `Bearer ${opts.token}`);
  const init = { method: opts.method ?? 'POST', headers, body: opts.body, duplex: 'half' };
  const req = new NextRequest(new URL(`http://localhost:3000${path}`), init as ConstructorParameters<typeof NextRequest>[1]);
  const res = await handler(req, { params: Promise.resolve(opts.params ?? {}) });
  return { status: res.status, headers: res.headers, body: JSON.parse(await res.text()) };
};

/** A body stream of `chunks` chunks of `size` bytes that counts what was pulled from it. */
const countingStream = (chunks: number, size: number) => {
  const pulled = { bytes: 0 };
  const chunk = new TextEncoder().encode('x'.repeat(size));
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent++ >= chunks) return controller.close();
      pulled.bytes += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, pulled };
};

let token: string;

// The endpoints above exist only in this file, so not in the OpenAPI document the shared check reads.
beforeAll(() => setResponseCheck(undefined));

describe('bounded requests', () => {
  beforeAll(async () => {
    token = await tokenFor(await seedUser());
    await (await getDb()).execute(sql`create table if not exists bounds_probe (tag text not null)`);
  });
  beforeEach(() => setLimiter(createMemoryLimiter()));

  it('413 PAYLOAD_TOO_LARGE from a Content-Length over the limit, before reading a byte', async () => {
    const { stream, pulled } = countingStream(200, 1024);
    const res = await rawCall(echoHandler, '/api/test/1', { token, params: { id: '1' }, body: stream, headers: { 'content-type': 'application/json', 'content-length': String(200 * 1024) } });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(pulled.bytes).toBeLessThanOrEqual(1024);
    expect(res.headers.get('x-ratelimit-limit')).toBeTruthy();
  });

  it('413 for a streamed body without a length, reading no further than the limit', async () => {
    const { stream, pulled } = countingStream(10_000, 1024);
    const res = await rawCall(echoHandler, '/api/test/1', { token, params: { id: '1' }, body: stream, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(413);
    expect(pulled.bytes).toBeLessThanOrEqual(DEFAULT_JSON_BODY_LIMIT + 3 * 1024);
  });

  it('415 for a body that is not JSON by its type (text/plain and no type included: what a cross-site form sends); JSON types are read, and a write with no body needs none', async () => {
    for (const type of ['application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=x', 'text/plain', 'text/plain;charset=UTF-8', 'application/jsonx']) {
      const res = await rawCall(echoHandler, '/api/test/1', { token, params: { id: '1' }, body: '{"text":"a"}', headers: { 'content-type': type } });
      expect(res.status, type).toBe(415);
      expect(res.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    const none = await rawCall(echoHandler, '/api/test/1', { token, params: { id: '1' }, body: new TextEncoder().encode('{"text":"a"}') });
    expect(none.status).toBe(415);
    expect(none.body.error.message).toMatch(/without Content-Type/);
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/merge-patch+json', 'application/vnd.api+json']) {
      const res = await rawCall(echoHandler, '/api/test/1', { token, params: { id: '1' }, body: '{"text":"a"}', headers: { 'content-type': type } });
      expect(res.status, type).toBe(200);
    }
    // No body at all: nothing to type (a bodiless write such as a follow).
    expect((await rawCall(noBodyHandler, '/api/test/nobody', { token })).status).toBe(200);
  });

  it('400 for nesting deeper than the limit, malformed UTF-8, unknown fields and a body on a route that takes none', async () => {
    const deep = '{"deep":' + '['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1) + '}';
    const nested = await call(echoHandler, '/api/test/1', { method: 'POST', token, params: { id: '1' }, body: deep });
    expect(nested.status).toBe(400);
    expect(nested.body.error.message).toMatch(/nests deeper/);
    const utf8 = await rawCall(echoHandler, '/api/test/1', { token, params: { id: '1' }, body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), headers: { 'content-type': 'application/json' } });
    expect(utf8.status).toBe(400);
    const extra = await call(echoHandler, '/api/test/1', { method: 'POST', token, params: { id: '1' }, body: { text: 'a', isAdmin: true } });
    expect(extra.status).toBe(400);
    expect(extra.body.error.code).toBe('VALIDATION_ERROR');
    for (const body of ['{"x":1}', '[1]', '"text"', '5', '{oops']) {
      const res = await call(noBodyHandler, '/api/test/nobody', { method: 'POST', token, body });
      expect(res.status, body).toBe(400);
    }
    for (const body of [undefined, '', '{}', '  ']) {
      expect((await call(noBodyHandler, '/api/test/nobody', { method: 'POST', token, body })).status).toBe(200);
    }
  });

  it('400 for NUL, other control characters and lone surrogates anywhere: body, keys, path, query', async () => {
    const cases = [
      { params: { id: '1' }, body: { text: 'a\u0000b' } },
      { params: { id: '1' }, body: { text: 'bell\u0007' } },
      { params: { id: '1' }, body: { text: 'half \ud83d pair' } },
      { params: { id: '1' }, body: '{"te\\u0000xt":"a"}' },
      { params: { id: '\u0000' }, body: { text: 'a' } },
      { params: { id: '\udc00' }, body: { text: 'a' } },
      { params: { id: '1' }, query: { q: 'x\u0000' }, body: { text: 'a' } },
    ];
    for (const c of cases) {
      const res = await call(echoHandler, '/api/test/1', { method: 'POST', token, ...c });
      expect(res.status, JSON.stringify(c)).toBe(400);
      expect(['VALIDATION_ERROR', 'INVALID_PARAMETER']).toContain(res.body.error.code);
    }
    // Tabs, new lines and whole emoji are text.
    expect((await call(echoHandler, '/api/test/1', { method: 'POST', token, params: { id: '1' }, body: { text: 'a\tb\r\nc 👍🏽' } })).status).toBe(200);
  });

  it('414 for an over-long URL and 400 for too many query parameters', async () => {
    const long = await call(echoHandler, `/api/test/1?q=${'a'.repeat(MAX_URL_LENGTH)}`, { method: 'POST', token, params: { id: '1' }, body: { text: 'a' } });
    expect(long.status).toBe(414);
    expect(long.body.error.code).toBe('URI_TOO_LONG');
    const many = Array.from({ length: MAX_QUERY_PARAMS + 1 }, (_, i) => `p${i}=1`).join('&');
    const tooMany = await call(echoHandler, `/api/test/1?${many}`, { method: 'POST', token, params: { id: '1' }, body: { text: 'a' } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.code).toBe('INVALID_PARAMETER');
  });

  it("a field's own code for a value out of range (INVALID_TRADE_SIZE), VALIDATION_ERROR for a wrong type", async () => {
    for (const amount of [0, -1, 1e22, 1001]) {
      const res = await call(echoHandler, '/api/test/1', { method: 'POST', token, params: { id: '1' }, body: { amount } });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('INVALID_TRADE_SIZE');
    }
    const wrongType = await call(echoHandler, '/api/test/1', { method: 'POST', token, params: { id: '1' }, body: { amount: [5] } });
    expect(wrongType.body.error.code).toBe('VALIDATION_ERROR');
    const huge = await call(echoHandler, '/api/test/1', { method: 'POST', token, params: { id: '1' }, body: '{"amount":1e400}' });
    expect(huge.status).toBe(400);
  });

  it('a database data exception (SQLSTATE class 22) is a 400, not a 500', async () => {
    const res = await call(overflowHandler, '/api/test/overflow');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.requestId).toBe(res.headers.get('x-request-id'));
  });

  it('503 DEADLINE_EXCEEDED past the deadline, and nothing the request did is kept', async () => {
    for (const mode of ['transaction', 'statement'] as const) {
      const tag = `late-${mode}`;
      const res = await call(slowHandler, '/api/test/slow', { method: 'POST', token, body: { mode, tag } });
      expect(res.status, mode).toBe(503);
      expect(res.body.error.code).toBe('DEADLINE_EXCEEDED');
      // Answered as soon as none of its writes was in flight (lib/clock/deadline.ts): after the
      // transaction it was inside ended, and, with no write under way, at the deadline itself,
      // while the abandoned work still slept.
      expect(slept.has(tag), mode).toBe(mode === 'transaction');
      // The abandoned work finishes (or fails) in the background; once it has slept, give it time,
      // then look.
      while (!slept.has(tag)) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 700));
      const rows = rowsOf<{ n: number }>(await (await getDb()).execute(sql`select count(*)::int as n from bounds_probe where tag = ${tag}`));
      expect(rows[0]!.n, mode).toBe(0);
    }
  });

  it('a caller past its bad-input budget is paused and refused unread until the window ends; others are not', async () => {
    const flooder = await tokenFor(await seedUser());
    for (let i = 0; i <= RATE_LIMITS.badInput.limit; i++) {
      const bad = await call(echoHandler, '/api/test/1', { method: 'POST', token: flooder, params: { id: '1' }, body: { nope: i } });
      expect(bad.status).toBe(400);
    }
    const started = Date.now();
    const held = await call(echoHandler, '/api/test/1', { method: 'POST', token: flooder, params: { id: '1' }, body: { text: 'now valid' } });
    expect(held.status).toBe(429);
    expect(held.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(Date.now() - started).toBeGreaterThanOrEqual(PENALTY_PAUSE_MS - 50);
    expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(held.headers.get('x-ratelimit-remaining')).toBe('0');
    // Refusals that are not about malformed input (a trade too large, a missing token) do not count,
    // and another caller is served as usual.
    const other = await call(echoHandler, '/api/test/1', { method: 'POST', token, params: { id: '1' }, body: { text: 'fine' } });
    expect(other.status).toBe(200);
  });

  it('every answer carries the security and CORS headers', async () => {
    const res = await call(echoHandler, '/api/test/1', { method: 'POST', token, params: { id: '1' }, body: { text: 'a' } });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'.*frame-ancestors 'none'/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('access-control-expose-headers')).toMatch(/X-RateLimit-Remaining/);
    expect(res.headers.get('referrer-policy')).toBeTruthy();
    expect(res.headers.get('permissions-policy')).toBeTruthy();
  });
});

describe('JSON everywhere under /api', () => {
  it('404 NOT_FOUND in the envelope for a path with no route, with the rate-limit headers', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const res = await call(notFoundHandlers[method], '/api/no/such/thing', { method });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
      expect(res.headers.get('x-ratelimit-limit')).toBeTruthy();
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
    }
  });

  it('405 METHOD_NOT_ALLOWED with Allow for a known path, the preflight for OPTIONS', async () => {
    const res = await call(methodNotAllowedHandlers.PUT, '/api/markets/predictions/abc/buy', { method: 'PUT', body: { amount: 1 } });
    expect(res.status).toBe(405);
    expect(res.body.error.code).toBe('METHOD_NOT_ALLOWED');
    expect(res.headers.get('allow')).toBe('POST, OPTIONS');
    expect(res.headers.get('x-ratelimit-remaining')).toBeTruthy();
    // Where templates overlap, the one Next.js routes to decides (static segment first).
    const byName = await call(methodNotAllowedHandlers.DELETE, '/api/users/by-username/follow', { method: 'DELETE' });
    expect(byName.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const follow = await call(methodNotAllowedHandlers.PUT, '/api/users/u1/follow', { method: 'PUT' });
    expect(follow.headers.get('allow')).toBe('DELETE, GET, HEAD, POST, OPTIONS');
    const preflight = await call(methodNotAllowedHandlers.OPTIONS, '/api/markets/predictions/abc/buy', {
      method: 'OPTIONS',
      headers: { origin: 'https://client.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
    expect(preflight.headers.get('x-ratelimit-limit')).toBe('1000');
  });
});
