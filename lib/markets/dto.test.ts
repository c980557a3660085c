/**
 * toMarketDto remembers the numbers it derives from a market's weights (dto.ts priceNumbers): a
 * remembered answer must be the answer. Held here against the decimal computation itself, for
 * first and repeated calls, across the memory's clearing, for active and resolved markets.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TMarketRow } from '@/db/schema';
import { dec, toNumber } from '@/lib/money/decimal';
import { marketPrices, toMarketDto } from './dto';

const weight = fc.tuple(fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 0, max: 999_999_999 })).map(([i, f]) => `${i}.${String(f).padStart(9, '0')}`);
const price = fc.option(fc.integer({ min: 1, max: 999_999 }).map((n) => `0.${String(n).padStart(6, '0')}`), { nil: null });

const market = (yesShares: string, noShares: string, status: 'active' | 'resolved', resolvedOutcome: 'YES' | 'NO' | null): TMarketRow =>
  ({
    id: 'm',
    questionNumber: 1,
    text: 'Q?',
    status,
    yesShares,
    noShares,
    liquidity: '100',
    volume: '0',
    resolutionDate: new Date('2027-01-01T00:00:00Z'),
    resolvedOutcome,
    resolvedAt: null,
    createdById: null,
    createdAt: new Date('2026-01-01T00:00:00Z'),
  }) as unknown as TMarketRow;

const expected = (m: TMarketRow, then: string | null) => {
  const p = marketPrices(m);
  const change = toNumber(p.yes.minus(then === null ? p.yes : dec(then)));
  return { yesPrice: toNumber(p.yes), noPrice: toNumber(p.no), priceChange24h: change, change24h: change };
};

describe('toMarketDto prices', () => {
  it('answers the decimal computation, first time and remembered', () => {
    fc.assert(
      fc.property(weight, weight, price, fc.constantFrom(null, 'YES', 'NO'), (yes, no, then, outcome) => {
        const m = market(yes, no, outcome ? 'resolved' : 'active', outcome);
        const want = expected(m, then);
        for (let i = 0; i < 2; i++) expect(toMarketDto(m, { yesPrice24hAgo: then })).toMatchObject(want);
      }),
      { numRuns: 300 },
    );
  });

  it('stays right past the memory limit (it is dropped whole and filled again)', () => {
    const first = market('500.5', '499.5', 'active', null);
    const want = expected(first, '0.4');
    expect(toMarketDto(first, { yesPrice24hAgo: '0.4' })).toMatchObject(want);
    for (let i = 0; i < 5_000; i++) toMarketDto(market(`${1000 + i}`, '1000', 'active', null));
    expect(toMarketDto(first, { yesPrice24hAgo: '0.4' })).toMatchObject(want);
    // A new price 24 h ago is a new answer, not the remembered one.
    expect(toMarketDto(first, { yesPrice24hAgo: '0.5' }).change24h).toBe(expected(first, '0.5').change24h);
    expect(toMarketDto(first, { yesPrice24hAgo: '0.5' }).change24h).not.toBe(want.change24h);
  });
});
