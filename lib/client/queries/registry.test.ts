import { describe, expect, it } from 'vitest';
import { isLocalUrl, registryKeys, registryFilterOf } from './registry';

describe('isLocalUrl', () => {
  it("takes a path on this site as local, and an app's own site (or a protocol-relative address) as not", () => {
    expect(isLocalUrl('/profile/u1')).toBe(true);
    expect(isLocalUrl('/')).toBe(true);
    expect(isLocalUrl('//evil.example/profile')).toBe(false);
    expect(isLocalUrl('https://app.example')).toBe(false);
    expect(isLocalUrl('profile/u1')).toBe(false);
    expect(isLocalUrl('')).toBe(false);
  });
});

describe('registryKeys.list', () => {
  it('keys a page by type, search (case-insensitive) and page', () => {
    expect(registryKeys.list({ type: 'agent', search: 'Alice', page: 2 })).toEqual(['registry', 'list', 'agent', 'alice', 2]);
    expect(registryKeys.list({ type: 'all', search: 'ALICE', page: 2 })).not.toEqual(registryKeys.list({ type: 'all', search: 'alice', page: 3 }));
  });
});

describe('registryFilterOf', () => {
  it("opens on the address's type when it is one, on every type otherwise", () => {
    expect(registryFilterOf('agent')).toBe('agent');
    expect(registryFilterOf('app')).toBe('app');
    for (const raw of [undefined, '', 'AGENT', 'robots', ['agent'], 5]) expect(registryFilterOf(raw)).toBe('all');
  });
});
