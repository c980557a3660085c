import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EVENT_KINDS } from '@/db/schema/world-values';
import { describeMarket, formatRuleDate, type TDescribableMarket, type TDescribableRule } from './describe';

const nexa = { id: 'org-nexa', name: 'Nexa Dynamics', ticker: 'NEXA', sector: 'Technology' };
const market: TDescribableMarket = {
  text: 'Will $NEXA close above 123.4 by Sat, Nov 28?',
  createdAt: new Date('2026-11-21T09:30:00Z'),
  resolutionDate: new Date('2026-11-28T14:00:00Z'),
  status: 'active',
  resolvedOutcome: null,
  resolvedAt: null,
};

describe('describeMarket examples', () => {
  it('formats dates in UTC with the weekday', () => {
    expect(formatRuleDate(new Date('2026-11-28T14:00:00Z'))).toBe('Sat, Nov 28, 2026, 14:00 UTC');
  });

  it('a price rule names the organization, ticker, threshold (trimmed), strict comparison and date', () => {
    const d = describeMarket(market, { kind: 'price', organization: nexa, comparison: 'above', threshold: '123.400000' });
    expect(d.resolutionSource).toBe('price');
    expect(d.resolutionCriteria).toBe(
      'Resolves YES if the price of Nexa Dynamics ($NEXA) in the game world is strictly above 123.4 at Sat, Nov 28, 2026, 14:00 UTC, ' +
        "and NO if it is at or below 123.4. Source: the $NEXA index (the organization's price), read when the question is settled; never this market's own price. " +
        'It is settled by the first game tick at or after Sat, Nov 28, 2026, 14:00 UTC; each winning share then pays $1.',
    );
    expect(d.description).toContain('Nexa Dynamics ($NEXA, Technology)');
  });

  it('a "below" price rule flips the NO side', () => {
    const d = describeMarket(market, { kind: 'price', organization: nexa, comparison: 'below', threshold: 9.5 });
    expect(d.resolutionCriteria).toContain('strictly below 9.5');
    expect(d.resolutionCriteria).toContain('NO if it is at or above 9.5');
  });

  it('an event rule names the kind of news, the organization and the window from creation to close', () => {
    const d = describeMarket(market, { kind: 'event', organization: nexa, eventKind: 'scandal', actorName: null });
    expect(d.resolutionSource).toBe('event');
    expect(d.description).toContain('report a scandal about Nexa Dynamics');
    expect(d.resolutionCriteria).toContain('"scandal" about Nexa Dynamics is published between');
    expect(d.resolutionCriteria).toContain('(Sat, Nov 21, 2026, 09:30 UTC) and Sat, Nov 28, 2026, 14:00 UTC');
    expect(d.resolutionCriteria).toContain('Source: the game\'s breaking news (world events) about Nexa Dynamics.');
    // It says the outcome was drawn at opening and that the news follows it, and when each side is paid.
    expect(d.resolutionCriteria).toContain('Whether it happens was drawn by the game world when the question opened');
    expect(d.resolutionCriteria).toContain('A YES is settled by the first game tick after that news, a NO by the first game tick at or after Sat, Nov 28, 2026, 14:00 UTC');
  });

  it('an executive statement names its speaker', () => {
    const d = describeMarket(market, { kind: 'event', organization: nexa, eventKind: 'executive_statement', actorName: 'Ada Vance' });
    expect(d.description).toContain('a public statement by Ada Vance about Nexa Dynamics');
  });

  it('without a rule the market price decides, YES at 50% or more', () => {
    const d = describeMarket(market, null);
    expect(d.resolutionSource).toBe('market');
    expect(d.resolutionCriteria).toContain('YES if the YES price is 50% or more, and NO if it is below 50%');
  });

  it('a resolved question says how and when it resolved', () => {
    const resolved = { ...market, status: 'resolved' as const, resolvedOutcome: 'NO' as const, resolvedAt: new Date('2026-11-28T14:01:00Z') };
    expect(describeMarket(resolved, null).description).toContain('It resolved NO on Sat, Nov 28, 2026, 14:01 UTC.');
  });
});

const arbDate = fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2035-01-01T00:00:00Z'), noInvalidDate: true });
const arbOrg = fc.record({
  id: fc.string({ minLength: 1, maxLength: 8 }),
  name: fc.string({ minLength: 1, maxLength: 20 }),
  ticker: fc.stringMatching(/^[A-Z]{2,5}$/),
  sector: fc.constantFrom('', 'Energy', 'Technology'),
});
const arbRule: fc.Arbitrary<TDescribableRule | null> = fc.oneof(
  fc.constant(null),
  fc.record({
    kind: fc.constant('price' as const),
    organization: arbOrg,
    comparison: fc.constantFrom('above' as const, 'below' as const),
    threshold: fc.integer({ min: 1, max: 10_000_000 }).map((c) => (c / 100).toFixed(6)),
  }),
  fc.record({
    kind: fc.constant('event' as const),
    organization: arbOrg,
    eventKind: fc.constantFrom(...EVENT_KINDS),
    actorName: fc.option(fc.string({ minLength: 1, maxLength: 20 }), { nil: null }),
  }),
);
const arbMarket = fc.record({
  text: fc.string({ maxLength: 80 }),
  createdAt: arbDate,
  resolutionDate: arbDate,
  status: fc.constantFrom('active' as const, 'resolved' as const),
  resolvedOutcome: fc.constantFrom('YES' as const, 'NO' as const, null),
  resolvedAt: fc.option(arbDate, { nil: null }),
});

describe('describeMarket properties', () => {
  it('always says what makes YES and NO, when, and from which source; never prints a missing value', () => {
    fc.assert(
      fc.property(arbMarket, arbRule, (m, rule) => {
        const d = describeMarket(m, rule);
        expect(d.resolutionCriteria).toMatch(/\bYES if /);
        expect(d.resolutionCriteria).toMatch(/\bNO if /);
        expect(d.resolutionCriteria).toContain(formatRuleDate(m.resolutionDate));
        expect(d.resolutionCriteria).toContain('Source: ');
        expect(d.resolutionSource).toBe(rule ? rule.kind : 'market');
        if (rule) expect(d.resolutionCriteria).toContain(rule.kind === 'price' ? `$${rule.organization.ticker}` : rule.organization.name);
        for (const text of [d.description, d.resolutionCriteria]) expect(text).not.toMatch(/\b(undefined|NaN)\b|\[object/);
      }),
    );
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(arbMarket, arbRule, (m, rule) => {
        expect(describeMarket(m, rule)).toEqual(describeMarket(m, rule));
      }),
    );
  });
});
