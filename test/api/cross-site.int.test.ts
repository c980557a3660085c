/**
 * No write answers to a cross-site request (README "CORS policy for /api"), held on every
 * operation the OpenAPI document lists, so a route added later is covered with no work:
 *  - every non-GET operation refuses a request that carries the session cookie from another site
 *    (a foreign Origin and `Sec-Fetch-Site: cross-site`) with 403, before reading its body
 *    (cron operations answer 401: they take only the scheduler's secret; so does MCP, which takes
 *    only a bearer credential and never reads the cookie);
 *  - every non-GET operation refuses a body typed `text/plain`, or with no Content-Type at all
 *    (what a cross-site HTML form or a preflight-free fetch can send), with 415, even from a
 *    bearer client with a body that is otherwise valid;
 *  - every GET the registry flags as writing (`writesOnGet`: the legacy onboarding GET) refuses a
 *    cookie caller whose browser does not say same-origin, with 403.
 * After each request the fingerprint of the whole database (test/fuzz/harness.ts) must be
 * unchanged. Handlers are called in-process the way Next.js calls them, as the fuzz suite does.
 */
import path from 'node:path';
import fc from 'fast-check';
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import pkg from '@/package.json';
import { isPrivileged } from '@/lib/auth/permissions';
import { endpoints } from '@/lib/contracts';
import { SESSION_COOKIE } from '@/lib/principals/principal';
import { env } from '@/lib/env';
import { DEFAULT_JSON_BODY_LIMIT } from '@/lib/http/limits';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { buildOpenApiDocument } from '@/lib/openapi/document';
import { operationsOf, validArb, type TJsonSchema, type TOperation } from '@/test/fuzz/cases';
import { createFingerprint, realParam, send, setupWorld, type TCaller, type TFingerprint, type THandler, type TWorld } from '@/test/fuzz/harness';

const root = path.resolve(import.meta.dirname, '..', '..');
const routeFileFor = (apiPath: string) => path.join(root, 'app', apiPath.replace(/\{(\w+)\}/g, '[$1]'), 'route.ts');

const doc = buildOpenApiDocument(pkg.version);
const registry = new Map(endpoints.map((e) => [e.id, e]));
const operations = operationsOf(doc as Parameters<typeof operationsOf>[0], (id) => ({
  bodyLimit: registry.get(id)?.bodyLimit ?? DEFAULT_JSON_BODY_LIMIT,
  cron: registry.get(id)?.auth === 'cron',
}));
const writes = operations.filter((op) => op.method !== 'GET');
const writingGets = operations.filter((op) => op.method === 'GET' && registry.get(op.operationId)?.writesOnGet);

const EVIL_ORIGIN = 'https://evil.example';
const crossSite = { origin: EVIL_ORIGIN, 'sec-fetch-site': 'cross-site' };

/** One value the schema accepts (fixed seed), so that a request is refused only for what it aims at. */
const sample = (schema: TJsonSchema): unknown => fc.sample(validArb(schema, schema), { seed: 29, numRuns: 1 })[0];
const queryString = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v));

let world: TWorld;
let fingerprint: TFingerprint;

const handlerOf = async (op: TOperation): Promise<THandler> => {
  const handler = ((await import(routeFileFor(op.path))) as Record<string, THandler | undefined>)[op.method];
  expect(handler, `${routeFileFor(op.path)} exports ${op.method}`).toBeTypeOf('function');
  return handler!;
};

const callerFor = (op: TOperation): TCaller => {
  return isPrivileged(registry.get(op.operationId)?.requires) ? world.admins[0]! : world.callers[0]!;
};

/**
 * A request for `op` with real path parameters, its required query parameters (or, with
 * `allQuery`, every declared one) set to values the document accepts, and the given headers and body.
 */
const request = (op: TOperation, caller: TCaller, init: { headers: Record<string, string>; body?: string; allQuery?: boolean }) => {
  const params: Record<string, string> = {};
  for (const p of op.pathParams) params[p.name] = realParam(op, p.name, caller, world);
  const url = new URL(`http://localhost:3000${op.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(params[name]!))}`);
  for (const p of op.queryParams) if (p.required || init.allQuery) url.searchParams.set(p.name, queryString(sample(p.schema)));
  const headers = new Headers(init.headers);
  headers.set('host', 'localhost:3000');
  headers.set('x-client-socket-address', '203.0.113.29');
  const req = new NextRequest(url, { method: op.method, headers, body: init.body });
  return { req, params, url: url.pathname + url.search };
};

/** The valid JSON body of the operation (or `{}`), as text. */
const validBody = (op: TOperation) => JSON.stringify(op.body && op.body.mediaType !== 'multipart/form-data' ? (sample(op.body.schema) ?? {}) : {});

const refusal = async (handler: THandler, built: ReturnType<typeof request>, label: string, status: number) => {
  const answer = await send(handler, built);
  const written = await fingerprint.changedSince();
  expect(answer.status, `${label}: ${built.url} answered ${answer.text.slice(0, 300)}`).toBe(status);
  expect((answer.json as { success?: unknown } | undefined)?.success, label).toBe(false);
  expect(answer.headers.get('x-ratelimit-limit'), label).toBeTruthy();
  expect(written, `${label} wrote`).toEqual([]);
};

describe('cross-site requests and body types, on every operation of the OpenAPI document', () => {
  beforeAll(async () => {
    world = await setupWorld(2, 1);
    fingerprint = await createFingerprint();
  }, 120_000);
  beforeEach(() => setLimiter(createMemoryLimiter()));
  afterAll(() => setLimiter(undefined));

  it('the document lists writes, and at least one GET flagged as writing (the legacy onboarding GET)', () => {
    expect(writes.length).toBeGreaterThan(50);
    expect(writingGets.map((op) => `${op.method} ${op.path}`)).toContain('GET /api/auth/onboard');
  });

  it('every non-GET operation refuses a cookie-authenticated request from another site with 403, writing nothing', async () => {
    for (const op of writes) {
      const caller = callerFor(op);
      const handler = await handlerOf(op);
      // Operations share strict rules (5 a minute): each gets fresh counters.
      setLimiter(createMemoryLimiter());
      const cookie = `${SESSION_COOKIE}=${caller.token}`;
      const headers = { cookie, 'content-type': 'application/json', ...crossSite };
      await refusal(handler, request(op, caller, { headers, body: validBody(op) }), `${op.method} ${op.path} cross-site cookie`, op.cron || op.path === '/api/mcp' ? 401 : 403);
      // Only the Origin, as an older browser sends it: still foreign.
      await refusal(handler, request(op, caller, { headers: { cookie, 'content-type': 'application/json', origin: EVIL_ORIGIN }, body: validBody(op) }), `${op.method} ${op.path} foreign Origin`, op.cron || op.path === '/api/mcp' ? 401 : 403);
    }
  }, 120_000);

  it('every non-GET operation refuses a text/plain body and a body without Content-Type with 415, writing nothing, even from a bearer client', async () => {
    for (const op of writes) {
      const caller = callerFor(op);
      const handler = await handlerOf(op);
      // Operations share strict rules (5 a minute): each gets fresh counters.
      setLimiter(createMemoryLimiter());
      const authorization = `Bearer ${op.cron ? env().cronSecret : caller.token}`;
      for (const type of ['text/plain', 'text/plain;charset=UTF-8', null]) {
        const headers: Record<string, string> = type ? { authorization, 'content-type': type } : { authorization };
        await refusal(handler, request(op, caller, { headers, body: validBody(op) }), `${op.method} ${op.path} Content-Type ${type ?? 'none'}`, 415);
      }
    }
  }, 120_000);

  it('every GET flagged as writing refuses a cookie caller not on our own page with 403, writing nothing', async () => {
    for (const op of writingGets) {
      const caller = world.callers[1]!;
      const handler = await handlerOf(op);
      const cookie = `${SESSION_COOKIE}=${caller.token}`;
      const planted = { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' };
      const variants: Record<string, string>[] = [{ cookie, ...crossSite }, { cookie, 'sec-fetch-site': 'same-site' }, { cookie }, { cookie, ...planted }];
      for (const headers of variants) {
        await refusal(handler, request(op, caller, { headers, allQuery: true }), `${op.method} ${op.path} ${JSON.stringify(headers).replace(caller.token, '…')}`, 403);
      }
    }
  });
});
