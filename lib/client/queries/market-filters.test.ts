import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { marketFiltersSearch, parseMarketFilters, type TMarketFilters } from './markets';

const parse = (search: string) => parseMarketFilters(new URLSearchParams(search));

describe('the markets page address', () => {
  it('leaves the defaults out, so the plain page stays /markets', () => {
    expect(marketFiltersSearch({ status: 'active' })).toBe('');
    expect(marketFiltersSearch({ status: 'active', sort: 'newest', q: '' })).toBe('');
    expect(marketFiltersSearch({ status: 'resolved', q: 'solaris grid', sort: 'movers', topic: 'Energy', ticker: 'SLRG' })).toBe(
      '?status=resolved&q=solaris+grid&sort=movers&topic=Energy&ticker=SLRG',
    );
  });

  it('drops unknown values and normalises the ticker', () => {
    expect(parse('status=bogus&sort=sideways&q=%20%20&ticker=slrg')).toEqual({ status: 'active', q: undefined, sort: undefined, topic: undefined, ticker: 'SLRG' });
  });

  it('reads back what it writes', () => {
    const arbText = fc.option(fc.string({ minLength: 1, maxLength: 30 }).filter((s) => s.trim() === s && s !== ''), { nil: undefined });
    const arbFilters: fc.Arbitrary<TMarketFilters> = fc.record({
      status: fc.constantFrom('active' as const, 'resolved' as const),
      q: arbText,
      sort: fc.constantFrom(undefined, 'volume' as const, 'closing' as const, 'movers' as const),
      topic: arbText,
      ticker: fc.option(fc.stringMatching(/^[A-Z]{2,6}$/), { nil: undefined }),
    });
    fc.assert(
      fc.property(arbFilters, (f) => {
        expect(parse(marketFiltersSearch(f))).toEqual(f);
      }),
    );
  });
});
