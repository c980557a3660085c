import { describe, expect, it } from 'vitest';
import type { TApiKey } from '@/lib/contracts/api-keys';
import { API_KEY_FIELD_MESSAGES, EMPTY_API_KEY_DRAFT, apiKeyKeys, apiKeyState, buildApiKeyBody, endOfLocalDay, getApiKeysQueryOptions, sortApiKeys, type TApiKeyDraft } from './api-keys';

const NOW = new Date(2026, 2, 10, 12, 0, 0).getTime();
const draft = (d: Partial<TApiKeyDraft> = {}): TApiKeyDraft => ({ ...EMPTY_API_KEY_DRAFT, name: 'bot', ...d });

const key = (k: Partial<TApiKey> = {}): TApiKey => ({
  id: 'k1',
  name: 'bot',
  prefix: 'pm_abcdefgh',
  scopes: ['read'],
  maxOrderAmount: null,
  dailyLimit: null,
  maxLeverage: null,
  expiresAt: null,
  createdAt: '2026-03-01T00:00:00.000Z',
  lastUsedAt: null,
  revokedAt: null,
  heartbeat: null,
  ...k,
});

describe('buildApiKeyBody', () => {
  it('sends the name trimmed, the scopes in the contract order, and leaves empty caps and expiry out', () => {
    expect(buildApiKeyBody(draft({ name: '  bot  ', scopes: ['trade', 'read'] }), NOW)).toEqual({ ok: true, body: { name: 'bot', scopes: ['read', 'trade'] } });
  });

  it('reads caps as people type them and the expiry as the end of that local day', () => {
    const built = buildApiKeyBody(draft({ maxOrderAmount: '$50', dailyLimit: '1,000.5', maxLeverage: ' 5 ', expiresOn: '2026-03-11' }), NOW);
    expect(built).toEqual({
      ok: true,
      body: { name: 'bot', scopes: ['read'], maxOrderAmount: '50', dailyLimit: '1000.5', maxLeverage: '5', expiresAt: new Date(2026, 2, 11, 23, 59, 59, 999).toISOString() },
    });
  });

  it("refuses what the contract's schema refuses, with each field's sentence", () => {
    const built = buildApiKeyBody(draft({ name: '   ', scopes: [], maxOrderAmount: '0', dailyLimit: 'lots', maxLeverage: '101' }), NOW);
    expect(built).toEqual({
      ok: false,
      errors: {
        name: API_KEY_FIELD_MESSAGES.name,
        scopes: API_KEY_FIELD_MESSAGES.scopes,
        maxOrderAmount: API_KEY_FIELD_MESSAGES.maxOrderAmount,
        dailyLimit: API_KEY_FIELD_MESSAGES.dailyLimit,
        maxLeverage: API_KEY_FIELD_MESSAGES.maxLeverage,
      },
    });
    expect(buildApiKeyBody(draft({ name: 'x'.repeat(65) }), NOW)).toMatchObject({ ok: false, errors: { name: API_KEY_FIELD_MESSAGES.name } });
    expect(buildApiKeyBody(draft({ maxOrderAmount: '1000000001' }), NOW)).toMatchObject({ ok: false, errors: { maxOrderAmount: expect.any(String) } });
    expect(buildApiKeyBody(draft({ maxLeverage: '0.5' }), NOW)).toMatchObject({ ok: false, errors: { maxLeverage: expect.any(String) } });
    expect(buildApiKeyBody(draft({ maxOrderAmount: '.5' }), NOW)).toMatchObject({ ok: true, body: { maxOrderAmount: '0.5' } });
  });

  it('refuses an expiry in the past or a date that does not exist; today is fine (it ends tonight)', () => {
    expect(buildApiKeyBody(draft({ expiresOn: '2026-03-09' }), NOW)).toEqual({ ok: false, errors: { expiresOn: API_KEY_FIELD_MESSAGES.expiresOn } });
    expect(buildApiKeyBody(draft({ expiresOn: '2026-02-30' }), NOW)).toMatchObject({ ok: false });
    expect(buildApiKeyBody(draft({ expiresOn: '2026-03-10' }), NOW)).toMatchObject({ ok: true });
    expect(endOfLocalDay('tomorrow')).toBeNull();
  });
});

describe('a key', () => {
  it('is revoked before expired before active', () => {
    expect(apiKeyState(key(), NOW)).toBe('active');
    expect(apiKeyState(key({ expiresAt: new Date(NOW + 1000).toISOString() }), NOW)).toBe('active');
    expect(apiKeyState(key({ expiresAt: new Date(NOW).toISOString() }), NOW)).toBe('expired');
    expect(apiKeyState(key({ expiresAt: new Date(NOW - 1).toISOString(), revokedAt: '2026-03-02T00:00:00.000Z' }), NOW)).toBe('revoked');
  });

  it('lists live keys first, keeping the server order within each group', () => {
    const keys = [key({ id: 'a', revokedAt: '2026-03-02T00:00:00.000Z' }), key({ id: 'b' }), key({ id: 'c', expiresAt: '2026-03-01T00:00:00.000Z' }), key({ id: 'd' })];
    expect(sortApiKeys(keys, NOW).map((k) => k.id)).toEqual(['b', 'd', 'a', 'c']);
  });

  it("is listed under its owner's key, which the mutations invalidate", () => {
    expect(getApiKeysQueryOptions('u1').queryKey).toEqual(apiKeyKeys.list('u1'));
    expect(apiKeyKeys.list('u1')).not.toEqual(apiKeyKeys.list('u2'));
  });
});
