/** What the OpenAPI document says beyond the schemas: who may call, what may go wrong, how routes overlap. */
import { describe, expect, it } from 'vitest';
import { endpoints } from '@/lib/contracts';
import { apiMethodNotAllowed, apiNotFound } from '@/lib/contracts/fallback';
import { systemHealth } from '@/lib/contracts/system';
import { buildOpenApiDocument } from '@/lib/openapi/document';

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
    expect(Object.keys(health).sort()).toEqual(['200', '400', '401', '414', '429', '500', '503']);
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
