import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRng } from '@/lib/game/rng';
import { groupChatLine, type TChatFacts } from './chat';

const facts = (over: Partial<TChatFacts> = {}): TChatFacts => ({ ticker: null, perps: [], predictions: [], markets: [], news: [], ...over });
const NUMBER = /\d/;

describe('groupChatLine', () => {
  it('in a ticker group names the ticker, the speaker’s own side, size, leverage, mark, fair value and the news', () => {
    const line = groupChatLine(
      facts({
        ticker: { ticker: 'HELX', price: 52.1, fairValue: 55 },
        perps: [{ ticker: 'HELX', side: 'short', size: 1500, leverage: 3, entryPrice: 54 }],
        news: [{ title: 'Helix wins a contract', ticker: 'HELX', impact: 0.03 }],
      }),
      createRng('t'),
    )!;
    expect(line).toContain('$HELX');
    expect(line).toMatch(/\bshort\b/);
    expect(line).not.toMatch(/\blong\b/);
    expect(line).toContain('3x');
    expect(line).toContain('52.10');
    expect(line).toContain('55.00');
    expect(line).toContain('Helix wins a contract');
  });

  it('says flat when the speaker holds nothing on the group’s ticker', () => {
    const line = groupChatLine(facts({ ticker: { ticker: 'NEXA', price: 10, fairValue: 11 }, perps: [{ ticker: 'QBIT', side: 'long', size: 100, leverage: 2, entryPrice: 5 }] }), createRng('f'))!;
    expect(line).toMatch(/Flat \$NEXA|No position in \$NEXA/);
    expect(line).not.toMatch(/\b(long|short)\b/);
  });

  it('property: elsewhere it names a market it can back with a number, and only the side the speaker holds', () => {
    const side = fc.constantFrom<'YES' | 'NO'>('YES', 'NO');
    fc.assert(
      fc.property(
        fc.string(),
        fc.option(fc.record({ side, shares: fc.double({ min: 1, max: 5000, noNaN: true }), yesPrice: fc.double({ min: 0.02, max: 0.98, noNaN: true }) }), { nil: undefined }),
        fc.double({ min: 0.02, max: 0.98, noNaN: true }),
        (seed, pred, fair) => {
          const f = facts({
            predictions: pred ? [{ question: 'Will Nexa launch a product by Fri?', ...pred, fair }] : [],
            markets: [{ question: 'Will $QBIT close above 83.5 by Tue?', yesPrice: 0.4, fair }],
          });
          const a = groupChatLine(f, createRng(seed));
          expect(a).toBe(groupChatLine(f, createRng(seed)));
          expect(a).toMatch(NUMBER);
          expect(a).toMatch(/"Will /);
          if (pred) {
            const other = pred.side === 'YES' ? 'NO' : 'YES';
            if (a!.includes('Nexa')) {
              expect(a).toMatch(new RegExp(`\\b${pred.side}\\b`));
              expect(a).not.toMatch(new RegExp(`(Holding|my side is) ${other}\\b`));
            }
          } else {
            expect(a).toMatch(/No position|Flat/);
          }
        },
      ),
    );
  });

  it('stays quiet with nothing concrete to say', () => {
    expect(groupChatLine(facts(), createRng('q'))).toBeNull();
  });
});
