import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './cursor';
import { parseMentions, parseTags, postTrendScore, tagUseWeight, visibleLength } from './text';

describe('social text', () => {
  it('counts characters as a reader sees them', () => {
    expect(visibleLength('hello')).toBe(5);
    expect(visibleLength('👍🏽')).toBe(1);
    expect(visibleLength('🇫🇷 ok')).toBe(4);
    expect(visibleLength('e\u0301')).toBe(1);
  });

  it('counts graphemes as the platform does (Intl.Segmenter), on short mixed text', () => {
    // The linear counter replaces Intl.Segmenter (quadratic here); on short text both must agree.
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    const reference = (s: string) => [...segmenter.segment(s)].length;
    const pieces = ['a', ' ', 'é', 'e\u0301', '👍', '👍🏽', '🇫🇷', '👨‍👩‍👧‍👦', '\r\n', '\n', '한', '\u1100\u1161\u11A8', '#', '@', '\u200d', '\ufe0f', '1️⃣', '🏳️‍🌈'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (parts) => {
        const s = parts.join('');
        expect(visibleLength(s)).toBe(reference(s));
      }),
      { numRuns: 500 },
    );
  });

  it('finds tags and mentions, distinct and lower case, not inside words or e-mail addresses', () => {
    expect(parseTags('Big news #AI and #ai, #Quantum_2! not a#tag, &#39;')).toEqual(['ai', 'quantum_2']);
    expect(parseMentions('hi @Alice and @bob_99, mail me at x@example.com @al')).toEqual(['alice', 'bob_99']);
  });

  it('round-trips cursors and refuses garbage with INVALID_PARAMETER', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }), fc.string({ minLength: 1 }), (at, id) => {
        const back = decodeCursor(encodeCursor({ at, id }));
        expect(back.at.getTime()).toBe(at.getTime());
        expect(back.id).toBe(id);
      }),
    );
    expect(() => decodeCursor('not-a-cursor')).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETER' }));
  });

  it('ranks by engagement and decays with age', () => {
    expect(postTrendScore({ likes: 10, comments: 0, shares: 0, ageHours: 1 })).toBeGreaterThan(postTrendScore({ likes: 10, comments: 0, shares: 0, ageHours: 48 }));
    expect(postTrendScore({ likes: 0, comments: 0, shares: 5, ageHours: 2 })).toBeGreaterThan(postTrendScore({ likes: 5, comments: 0, shares: 0, ageHours: 2 }));
    expect(tagUseWeight(24)).toBeCloseTo(0.5);
    expect(tagUseWeight(0)).toBe(1);
  });
});
