import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRng } from '@/lib/game/rng';
import { visibleLength } from '@/lib/posts/text';
import { clip, fitPost, fitReply, renderPost, renderReply, renderShareQuote, renderTradePost, subjectOf, voiceOf, TRADE_QUESTION_CHARS, type TPostTopic, type TSpeaker } from './voice';

const ada: TSpeaker = { username: 'ada_vance', displayName: 'Ada Vance', role: 'CEO of Nexa Dynamics', orgTicker: 'NEXA', orgName: 'Nexa Dynamics' };

const ZSpeaker = fc.record({
  username: fc.stringMatching(/^[a-z0-9_]{3,20}$/),
  displayName: fc.string({ maxLength: 60 }),
  role: fc.string({ maxLength: 80 }),
  orgTicker: fc.option(fc.stringMatching(/^[A-Z]{2,6}$/), { nil: null }),
  orgName: fc.option(fc.string({ maxLength: 200 }), { nil: null }),
});
const anyText = fc.oneof(fc.string({ maxLength: 600 }), fc.string({ unit: 'grapheme', maxLength: 400 }), fc.constant(''));
const price = fc.double({ min: 0, max: 10_000, noNaN: true });
const ZTopic: fc.Arbitrary<TPostTopic> = fc.oneof(
  fc.record({ kind: fc.constant('org' as const), ticker: fc.stringMatching(/^[A-Z]{2,6}$/), name: anyText, sector: anyText, price, initialPrice: price }),
  fc.record({ kind: fc.constant('holding' as const), question: anyText, side: fc.constantFrom('YES' as const, 'NO' as const), yesPrice: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({ kind: fc.constant('question' as const), question: anyText, yesPrice: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({ kind: fc.constant('event' as const), title: anyText, ticker: fc.option(fc.stringMatching(/^[A-Z]{2,6}$/), { nil: null }), impact: fc.double({ min: -1, max: 1, noNaN: true }), aboutSelf: fc.boolean() }),
  fc.record({ kind: fc.constant('mention' as const), other: fc.stringMatching(/^[a-z0-9_]{3,20}$/), ticker: fc.option(fc.stringMatching(/^[A-Z]{2,6}$/), { nil: null }) }),
  fc.record({ kind: fc.constant('perp' as const), ticker: fc.stringMatching(/^[A-Z]{2,6}$/), side: fc.constantFrom('long' as const, 'short' as const) }),
);

describe('NPC voice', () => {
  it('every generated post is 1 to 280 visible characters, whatever the world holds', () => {
    fc.assert(
      fc.property(ZSpeaker, ZTopic, fc.string(), (speaker, topic, seed) => {
        const n = visibleLength(renderPost(speaker, topic, createRng(seed)));
        expect(n).toBeGreaterThanOrEqual(1);
        expect(n).toBeLessThanOrEqual(280);
      }),
      { numRuns: 500 },
    );
  });

  it('every reply is at least 10 and at most 280 visible characters', () => {
    fc.assert(
      fc.property(ZSpeaker, fc.stringMatching(/^[a-z0-9_]{3,20}$/), anyText, fc.string(), (speaker, author, content, seed) => {
        const n = visibleLength(renderReply(speaker, { authorUsername: author, content }, createRng(seed)));
        expect(n).toBeGreaterThanOrEqual(10);
        expect(n).toBeLessThanOrEqual(280);
      }),
      { numRuns: 500 },
    );
  });

  it('fitting: clips long text with an ellipsis at a word, pads short replies, never leaves a post empty', () => {
    expect(visibleLength(fitPost('word '.repeat(100)))).toBeLessThanOrEqual(280);
    expect(fitPost('word '.repeat(100)).endsWith('…')).toBe(true);
    expect(fitPost('   ')).toBe('…');
    expect(visibleLength(fitReply('ok'))).toBeGreaterThanOrEqual(10);
    expect(clip('short', 10)).toBe('short');
    expect(visibleLength(clip('🇫🇷'.repeat(50), 10))).toBe(10);
  });

  it('the same seed writes the same post; a post names its ticker and tags', () => {
    const topic: TPostTopic = { kind: 'org', ticker: 'NEXA', name: 'Nexa Dynamics', sector: 'AI', price: 150, initialPrice: 142.5 };
    const a = renderPost(ada, topic, createRng('s'));
    expect(renderPost(ada, topic, createRng('s'))).toBe(a);
    expect(a).toContain('$NEXA');
    expect(a).toContain('#NEXA');
    expect(a).toContain('+5.3%');
  });

  it('voices follow the role, and replies refer to the post subject', () => {
    expect(voiceOf(ada)).toBe('insider');
    expect(voiceOf({ username: 'x', role: 'Crypto-native trader' })).toBe('degen');
    expect(voiceOf({ username: 'x', role: 'Financial journalist' })).toBe('skeptic');
    expect(voiceOf({ username: 'zz', role: '' })).toBe(voiceOf({ username: 'zz', role: '' }));
    expect(subjectOf('Opened a long on $ORBT today #space')).toBe('ORBT');
    expect(subjectOf('just vibes #Robots')).toBe('Robots');
    expect(subjectOf('nothing here')).toBeNull();
    const quote = renderShareQuote(ada, createRng('q'));
    expect(quote === null || (quote.length > 0 && quote.length <= 280)).toBe(true);
  });
});

describe('renderTradePost', () => {
  it('names exactly the trade: side, ticker and leverage, or side and question', () => {
    const rng = createRng('trade-post');
    const open = renderTradePost(ada, { kind: 'open', ticker: 'ORBT', side: 'long', leverage: 5 }, rng);
    expect(open).toContain('Opened a 5x long on $ORBT');
    expect(renderTradePost(ada, { kind: 'close', ticker: 'ORBT', side: 'short', leverage: 2 }, rng)).toContain('Closed my 2x short on $ORBT');
    expect(renderTradePost(ada, { kind: 'buy', outcome: 'NO', question: 'Will SOLR close above 30?' }, rng)).toContain('Bought NO on "Will SOLR close above 30?"');
    expect(renderTradePost(ada, { kind: 'sell', outcome: 'YES', question: 'Will SOLR close above 30?' }, rng)).toContain('Sold YES on "Will SOLR close above 30?"');
  });

  it('property: a post of 1 to 280 characters that quotes the start of the question', () => {
    fc.assert(
      fc.property(ZSpeaker, fc.string({ minLength: 1, maxLength: 400 }), fc.constantFrom('buy' as const, 'sell' as const), fc.constantFrom('YES' as const, 'NO' as const), fc.integer(), (s, question, kind, outcome, seed) => {
        const text = renderTradePost(s, { kind, outcome, question }, createRng(String(seed)));
        expect(visibleLength(text)).toBeGreaterThanOrEqual(1);
        expect(visibleLength(text)).toBeLessThanOrEqual(280);
        expect(text.includes(`${kind === 'buy' ? 'Bought' : 'Sold'} ${outcome} on "${clip(question, TRADE_QUESTION_CHARS)}"`)).toBe(true);
      }),
    );
  });
});

describe('renderRebuttal', () => {
  it('names both sides and the subject, in a reply of 10 to 280 characters', async () => {
    const { renderRebuttal } = await import('./voice');
    for (let i = 0; i < 30; i++) {
      const text = renderRebuttal(ada, { authorUsername: 'rafael_cruz', subject: '$ORBT', mySide: 'long', theirSide: 'short' }, createRng(`rebut-${i}`));
      expect(text).toContain('$ORBT');
      expect(text).toMatch(/\blong\b/);
      expect(visibleLength(text)).toBeGreaterThanOrEqual(10);
      expect(visibleLength(text)).toBeLessThanOrEqual(280);
    }
  });
});
