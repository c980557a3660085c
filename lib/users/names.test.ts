import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateProfileSuggestion, generateReferralCode, generateUsername, isValidUsername, usernameCandidate } from './names';

describe('usernames', () => {
  it('validates length and characters', () => {
    expect(isValidUsername('ab')).toBe(false);
    expect(isValidUsername('abc')).toBe(true);
    expect(isValidUsername('a'.repeat(21))).toBe(false);
    expect(isValidUsername('bad name')).toBe(false);
    expect(isValidUsername('good_name_1')).toBe(true);
  });

  it('property: every candidate is a valid username, whatever the wish', () => {
    fc.assert(
      fc.property(fc.option(fc.string({ maxLength: 40 })), fc.nat({ max: 5 }), (wish, attempt) => {
        expect(isValidUsername(usernameCandidate(wish ?? undefined, attempt))).toBe(true);
      }),
    );
  });

  it('keeps a usable wish on the first attempt and suffixes it later', () => {
    expect(usernameCandidate('alice', 0)).toBe('alice');
    expect(usernameCandidate('alice', 1, () => 0.1234)).toBe('alice1234');
    expect(usernameCandidate('a.l.i.c.e@x', 0)).toBe('alicex');
  });

  it('generates valid usernames, profiles and referral codes', () => {
    for (let i = 0; i < 50; i++) {
      expect(isValidUsername(generateUsername())).toBe(true);
      const p = generateProfileSuggestion();
      expect(isValidUsername(p.username)).toBe(true);
      expect(p.profileImageUrl).toMatch(/^\/avatars\/[1-8]\.svg$/);
      expect(generateReferralCode()).toMatch(/^[A-Z2-9]{8}$/);
    }
  });
});
