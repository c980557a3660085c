/** The strict answer check of test/setup-db.ts: what it lets through and what it refuses. */
import { describe, expect, it } from 'vitest';
import { apiNotFound } from '@/lib/contracts/fallback';
import { mediaGet } from '@/lib/contracts/uploads';
import { predictionsBuy } from '@/lib/contracts/markets';
import { systemHealth } from '@/lib/contracts/system';
import { usersUpdateProfile } from '@/lib/contracts/users';
import { buildOpenApiDocument } from '@/lib/openapi/document';
import { createResponseCheck } from './response-check';

const check = createResponseCheck(() => buildOpenApiDocument('0.0.0-test'));
const error = (code: string, details?: Record<string, unknown>) => ({ success: false, error: { code, message: 'm', ...(details ? { details } : {}) } });

describe('the answer check', () => {
  it('passes an answer that matches its status schema exactly', () => {
    expect(check(systemHealth, 200, { success: true, db: 'pglite', version: '1.0.0' })).toBeNull();
  });

  it('refuses a field the schema does not declare, a missing one and a wrong type', () => {
    expect(check(systemHealth, 200, { success: true, db: 'pglite', version: '1', extra: 1 })).toContain('"extra"');
    expect(check(systemHealth, 200, { success: true, db: 'pglite' })).toContain("'version'");
    expect(check(systemHealth, 200, { success: true, db: 'mysql', version: '1' })).toContain('/db');
  });

  it('checks what the client receives: undefined fields vanish, NaN becomes null', () => {
    expect(check(systemHealth, 200, { success: true, db: 'pglite', version: '1', gone: undefined })).toBeNull();
    const buy = check(predictionsBuy, 200, { success: true, shares: Number.NaN });
    expect(buy).toContain('/shares must be number');
  });

  it('refuses a status the operation does not declare, and an error code its status does not list', () => {
    expect(check(systemHealth, 404, error('NOT_FOUND'))).toMatch(/status 404 is not declared/);
    expect(check(systemHealth, 400, error('INVALID_PARAMETER'))).toBeNull();
    expect(check(systemHealth, 400, error('USERNAME_TAKEN'))).toMatch(/USERNAME_TAKEN is not declared/);
    expect(check(usersUpdateProfile, 400, error('USERNAME_TAKEN', { field: 'username' }))).toBeNull();
    expect(check(systemHealth, 400, { success: false, error: { code: 'INVALID_PARAMETER' } })).toContain("'message'");
  });

  it('declares the wrapper statuses on every operation (shared responses included)', () => {
    for (const status of [401, 414, 429, 500]) expect(check(systemHealth, status, error('X'))).toMatch(/X is not declared/);
    expect(check(systemHealth, 503, error('DEADLINE_EXCEEDED'))).toBeNull();
    expect(check(usersUpdateProfile, 413, error('PAYLOAD_TOO_LARGE'))).toBeNull();
    expect(check(systemHealth, 413, error('PAYLOAD_TOO_LARGE'))).toMatch(/status 413 is not declared/);
  });

  it('skips bytes, holds hidden fallbacks to the error envelope', () => {
    expect(check(mediaGet, 200, undefined)).toBeNull();
    expect(check(mediaGet, 200, { success: true })).toMatch(/declares only image\//);
    expect(check(apiNotFound, 404, error('NOT_FOUND'))).toBeNull();
    expect(check(apiNotFound, 404, { ok: false })).not.toBeNull();
  });
});
