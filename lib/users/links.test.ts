import { describe, expect, it } from 'vitest';
import { profileHref } from './links';

describe('profileHref', () => {
  it('is /u/ and the username', () => {
    expect(profileHref({ username: 'Alice_01' })).toBe('/u/Alice_01');
  });

  it('keeps the case of the username (the route compares names ignoring case)', () => {
    expect(profileHref({ username: 'BoldOtter' })).toBe('/u/BoldOtter');
  });

  it('reads only the username of a larger object', () => {
    const author = { id: 'u1', username: 'bob', displayName: 'Bob', profileImageUrl: null };
    expect(profileHref(author)).toBe('/u/bob');
  });

  it('encodes what a path segment cannot hold', () => {
    expect(profileHref({ username: 'a b/c?d#e' })).toBe('/u/a%20b%2Fc%3Fd%23e');
    expect(profileHref({ username: 'ünï' })).toBe(`/u/${encodeURIComponent('ünï')}`);
  });
});
