import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './cursor';
import { describeHolding, describeTrade, parseMentions, parseTags, postTrendScore, splitRichText, tagUseWeight, tradeHref, visibleLength } from './text';

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

describe('rich text with tickers', () => {
  const TICKERS = ['HELX', 'NEXA', 'ORBT'];

  it('links real $TICKERs only, leaves #tags as tags and unknown symbols as text', () => {
    expect(splitRichText('Long $HELX, short $nexa, not $NOPE or a$ORBT; #ORBT is a tag and @trader_1 a mention. $ORBT!', { tickers: TICKERS })).toEqual([
      { kind: 'text', text: 'Long ' },
      { kind: 'ticker', text: '$HELX', value: 'HELX' },
      { kind: 'text', text: ', short $nexa, not $NOPE or a$ORBT; ' },
      { kind: 'tag', text: '#ORBT', value: 'ORBT' },
      { kind: 'text', text: ' is a tag and ' },
      { kind: 'mention', text: '@trader_1', value: 'trader_1' },
      { kind: 'text', text: ' a mention. ' },
      { kind: 'ticker', text: '$ORBT', value: 'ORBT' },
      { kind: 'text', text: '!' },
    ]);
    expect(splitRichText('$HELXY and $$HELX', { tickers: TICKERS }).filter((s) => s.kind === 'ticker')).toEqual([]);
    expect(splitRichText('$HELX', {}).map((s) => s.kind)).toEqual(['text']);
  });

  it('gives the text back unchanged, with spans in order and tickers only from the list (property)', () => {
    const pieces = [' ', 'a', 'X', '$', '#', '@', '$HELX', '$NEXA', '$NOPE', '#tag', '@someone', '<script>', '&amp;', '_', '1', '\n', 'é'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), fc.subarray(TICKERS), (parts, tickers) => {
        const text = parts.join('');
        const spans = splitRichText(text, { tickers });
        expect(spans.map((s) => s.text).join('')).toBe(text);
        for (const s of spans) {
          expect(s.text.length).toBeGreaterThan(0);
          if (s.kind === 'ticker') {
            expect(tickers).toContain(s.value);
            expect(s.text).toBe(`$${s.value}`);
          }
        }
        // Two plain runs never sit side by side: every cut is at a link.
        spans.forEach((s, i) => i > 0 && s.kind === 'text' && expect(spans[i - 1]!.kind).not.toBe('text'));
      }),
      { numRuns: 400 },
    );
  });
});

describe('trade chips and holdings', () => {
  it('describes a prediction trade, a perp trade and a holding in a few words', () => {
    const base = { ticker: null, marketId: 'm1', amount: 49.2, leverage: null };
    expect(describeTrade({ ...base, kind: 'prediction', side: 'YES', action: 'buy', price: 0.41, shares: 120 })).toBe('Bought 120 YES at 41¢');
    expect(describeTrade({ ...base, kind: 'prediction', side: 'NO', action: 'sell', price: 0.6349, shares: 12.5 })).toBe('Sold 12.5 NO at 63.5¢');
    const perp = { kind: 'perp' as const, ticker: 'ORBT', marketId: null, amount: 4000, shares: null, price: 12.3 };
    expect(describeTrade({ ...perp, side: 'long', action: 'open', leverage: 40 })).toBe('Opened 40× long $ORBT at 12.30');
    expect(describeTrade({ ...perp, side: 'short', action: 'liquidation', leverage: 10 })).toBe('Liquidated 10× short $ORBT at 12.30');
    expect(describeTrade({ ...perp, side: 'short', action: 'close', leverage: 2, price: 210.9583 })).toBe('Closed 2× short $ORBT at 210.96');
    expect(describeTrade({ ...perp, side: 'long', action: 'open', leverage: null, price: 0.04567 })).toBe('Opened long $ORBT at 0.0457');
    expect(tradeHref(perp)).toBe('/perps/ORBT');
    expect(tradeHref({ kind: 'prediction', ticker: null, marketId: 'm 1' })).toBe('/markets/m%201');
    expect(describeHolding({ side: 'YES', shares: 120, avgPrice: 0.41 })).toBe('holds 120 YES at 41¢');
  });
});

