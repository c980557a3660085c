/** What the OpenAPI document says beyond the schemas: who may call, what may go wrong, how routes overlap. */
import { describe, expect, it } from 'vitest';
import { endpoints } from '@/lib/contracts';
import { apiMethodNotAllowed, apiNotFound } from '@/lib/contracts/fallback';
import { systemHealth } from '@/lib/contracts/system';
import { isJsonMediaType } from '@/lib/http/limits';
import { buildOpenApiDocument, rateLimitsOf } from '@/lib/openapi/document';
import { PENALTY_PAUSE_MS } from '@/lib/operations/rate-limit';
import { RATE_LIMITS } from '@/lib/contracts/rate-limits';

const doc = buildOpenApiDocument('1.0.0');
const op = (path: string, method: string) => (doc.paths[path] as Record<string, any>)[method] as Record<string, any>;

describe('the OpenAPI document', () => {
  it('leaves hidden endpoints (the JSON 404 and 405 fallbacks) out', () => {
    const small = buildOpenApiDocument('1.0.0', [systemHealth, apiNotFound, apiMethodNotAllowed]);
    expect(Object.keys(small.paths)).toEqual(['/api/health']);
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((o) => o.operationId));
    expect(ids.sort()).toEqual(endpoints.filter((e) => !e.hidden).map((e) => e.id).sort());
  });

  it('declares security on every operation: optional on public ones', () => {
    expect(op('/api/health', 'get').security).toEqual([{}, { bearer: [] }, { session: [] }]);
    expect(op('/api/users/me', 'get').security).toEqual([{ bearer: [] }, { session: [] }]);
    expect(op('/api/cron/game-tick', 'post').security).toEqual([{ cronSecret: [] }]);
  });

  it('declares what the wrapper can answer on any route, with its codes and headers', () => {
    const health = op('/api/health', 'get').responses;
    expect(Object.keys(health).sort()).toEqual(['200', '400', '401', '403', '414', '429', '500', '503']);
    expect(health['401'].description).toContain('UNAUTHORIZED');
    expect(health['429']).toEqual({ $ref: '#/components/responses/RateLimited' });
    const buy = op('/api/markets/predictions/{id}/buy', 'post').responses;
    expect(Object.keys(buy).sort()).toEqual(['200', '400', '401', '403', '404', '409', '413', '414', '415', '422', '429', '500', '503']);
    expect(buy['422']['x-error-codes']).toEqual(['IDEMPOTENCY_KEY_REUSED']);
    expect(buy['400']['x-error-codes']).toEqual(expect.arrayContaining(['INVALID_TRADE_SIZE', 'INSUFFICIENT_BALANCE', 'MARKET_CLOSED']));
    expect(Object.keys(buy['200'].headers)).toEqual(['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Idempotent-Replayed']);
    expect(op('/api/markets/predictions/{id}/buy', 'post').parameters).toContainEqual(expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }));
    // A read never takes a key.
    expect(op('/api/health', 'get').parameters ?? []).not.toContainEqual(expect.objectContaining({ name: 'Idempotency-Key' }));
    expect(doc.components.responses.Unavailable.description).toMatch(/DEADLINE_EXCEEDED.*SERVICE_UNAVAILABLE/);
  });

  it('describes the upload form with its file part', () => {
    const form = op('/api/upload/image', 'post').requestBody.content['multipart/form-data'];
    expect(form.schema.required).toContain('file');
    expect(form.schema.properties.file).toMatchObject({ type: 'string', format: 'binary' });
    expect(form.schema.properties.type.enum).toEqual(['profile', 'cover', 'post']);
    expect(form.encoding.file.contentType).toBe('image/jpeg, image/png, image/gif, image/webp');
  });

  it('says which route wins where paths overlap', () => {
    expect(op('/api/users/{userId}/follow', 'post').description).toContain('`{userId}` = `by-username` is served by `/api/users/by-username/{username}`');
    expect(op('/api/trending/{tag}', 'get').description).toContain('`{tag}` = `tags` is served by `/api/trending/tags`');
    expect(op('/api/users/by-username/{username}', 'get').description).toContain('this route wins');
  });
});

const operations = () =>
  Object.values(doc.paths).flatMap((ops) => Object.values(ops as Record<string, Record<string, any>>));

describe('what the document says the service does', () => {
  it('describes the bad-input budget and its 429, with the figures the server uses', () => {
    const { limit, windowSec } = RATE_LIMITS.badInput;
    const text = doc.info.description;
    expect(text).toContain(`budget of ${limit} requests refused as malformed`);
    expect(text).toContain(`per ${windowSec} s`);
    expect(text).toContain(`waits a ${PENALTY_PAUSE_MS === 1000 ? 'second' : '?'}`);
    expect(text).toMatch(/valid ones included.*429 RATE_LIMIT_EXCEEDED/s);
    // The 429 every operation declares says so too (the shared response and the inline ones).
    expect(doc.components.responses.RateLimited.description).toContain(`more than ${limit} requests refused as malformed`);
    for (const o of operations()) {
      const r429 = o.responses['429'];
      expect(r429, o.operationId).toBeDefined();
      if (!r429.$ref) expect(r429.description, o.operationId).toContain('bad-input penalty box');
    }
    expect(doc.components.headers['X-RateLimit-Limit'].description).toContain(`the budget's ${limit}`);
  });

  it('gives both rate-limit figures: per address without a token, per account with one', () => {
    const figure = (rule: keyof typeof RATE_LIMITS, per: string) => ({ rule, limit: RATE_LIMITS[rule].limit, windowSeconds: RATE_LIMITS[rule].windowSec, per });
    // A public read without a rule of its own: 100 by address, but 1000 for a bearer caller.
    expect(op('/api/health', 'get')['x-rate-limit']).toEqual({ anonymous: figure('public', 'address'), authenticated: figure('authenticated', 'account') });
    expect(op('/api/users/me', 'get')['x-rate-limit']).toEqual({ anonymous: figure('public', 'address'), authenticated: figure('authenticated', 'account') });
    // A rule of its own applies to both kinds of caller, each counted on its own.
    expect(op('/api/markets/predictions/{id}/buy', 'post')['x-rate-limit']).toEqual({
      anonymous: figure('predictionsTrade', 'address'),
      authenticated: figure('predictionsTrade', 'account'),
    });
    expect(op('/api/cron/game-tick', 'post')['x-rate-limit'].authenticated).toEqual(figure('authenticated', 'scheduler'));
    for (const e of endpoints.filter((x) => !x.hidden)) {
      expect(op(e.path, e.method.toLowerCase())['x-rate-limit'], e.id).toEqual(rateLimitsOf(e));
    }
  });

  it('declares exactly the body types the server reads: JSON (or +json), and the upload\'s form', () => {
    const bodies = operations().filter((o) => o.requestBody);
    expect(bodies.length).toBeGreaterThan(40);
    for (const o of bodies) {
      const types = Object.keys(o.requestBody.content);
      expect(types, o.operationId).toEqual(o.operationId === 'upload.image' ? ['multipart/form-data'] : ['application/json', 'application/*+json']);
      for (const t of types) expect(isJsonMediaType(t.replace('*', 'vnd.x')) || t === 'multipart/form-data', `${o.operationId} ${t}`).toBe(true);
    }
    // What the server refuses is never declared as a body (text/plain is only an answer: the Prometheus scrape).
    expect(JSON.stringify(bodies.map((o) => o.requestBody))).not.toContain('"text/plain"');
    expect(Object.keys(op('/api/metrics', 'get').responses['200'].content)).toEqual(['text/plain']);
    expect(isJsonMediaType('text/plain')).toBe(false);
    expect(op('/api/posts', 'post').description).toContain('Body type: application/json or application/*+json only (415');
  });

  it('declares CANNOT_TARGET_SELF where asking about oneself is refused, and no 404 for a list filtered by an unknown user', () => {
    for (const path of ['/api/users/{userId}/block', '/api/users/{userId}/mute']) {
      expect(op(path, 'get').responses['400']['x-error-codes'], path).toContain('CANNOT_TARGET_SELF');
    }
    // The posts and markets lists answer 200 for a userId that names nobody; the path form is a resource (404).
    expect(op('/api/posts', 'get').responses['404']).toBeUndefined();
    expect(op('/api/markets/predictions', 'get').responses['404']).toBeUndefined();
    expect(op('/api/users/{userId}/posts', 'get').responses['404']['x-error-codes']).toEqual(['USER_NOT_FOUND']);
    const userId = op('/api/posts', 'get').parameters.find((p: { name: string }) => p.name === 'userId');
    expect(userId.description).toContain('matches no post (200, empty)');
  });

  it('gives every success answer a real schema: no open object outside JSON Schemas and error details', () => {
    const open: string[] = [];
    const isOpen = (s: Record<string, unknown>) => {
      const keys = Object.keys(s).filter((k) => k !== 'description');
      return keys.length === 0 || s.additionalProperties === true || (typeof s.additionalProperties === 'object' && Object.keys(s.additionalProperties as object).length === 0);
    };
    const walk = (s: unknown, where: string) => {
      if (Array.isArray(s)) return s.forEach((x, i) => walk(x, `${where}/${i}`));
      if (!s || typeof s !== 'object') return;
      const node = s as Record<string, unknown>;
      // Left open on purpose: a JSON Schema (the document's own, a method's params) and a REST error's details.
      if (String(node.description ?? '').startsWith('a JSON Schema') || where.endsWith('/details')) return;
      if (isOpen(node)) open.push(where || '/');
      for (const [k, v] of Object.entries(node)) if (k !== 'description' && k !== 'enum' && k !== 'const') walk(v, `${where}/${k}`);
    };
    for (const o of operations()) {
      for (const [status, r] of Object.entries(o.responses as Record<string, any>)) {
        const schema = status.startsWith('2') ? r.content?.['application/json']?.schema : undefined;
        if (schema) walk(schema, `${o.operationId} ${status} `);
      }
    }
    expect(open).toEqual([]);
  });
});
