import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dec, type TDecimal } from '@/lib/money/decimal';
import {
  DIVISION_SIZE,
  MIN_DAYS,
  MIN_TRADES,
  TIERS,
  TOP_TIER,
  VOLATILITY_FLOOR,
  closedDayOf,
  dailyReturns,
  divisionsOf,
  nextTier,
  placementTier,
  qualifies,
  rankDivision,
  riskAdjusted,
  seasonOf,
  zoneSizes,
  type TDay,
  type TOutcome,
  type TScored,
} from './math';

const DAY_MS = 86_400_000;

/** A date between 1990 and 2100, to the millisecond. */
const arbDate = fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2100, 0, 1) }).map((t) => new Date(t));

/**
 * An equity path: a start of 100 to 1,000,000 and up to 8 days, each with a trading return of
 * −50 % to +50 % (per mille) and a flow of −30 % to +50 % of the previous close (per mille).
 * Answers the closes and flows, exactly, and the trading returns that made them.
 */
const arbPath = fc
  .tuple(
    fc.integer({ min: 100, max: 1_000_000 }),
    fc.array(fc.tuple(fc.integer({ min: -500, max: 500 }), fc.integer({ min: -300, max: 500 })), { minLength: 0, maxLength: 8 }),
  )
  .map(([start, steps]) => {
    let equity: TDecimal = dec(start);
    const days: { equity: TDecimal; flows: TDecimal }[] = [{ equity, flows: dec(0) }];
    for (const [r, f] of steps) {
      const flow = equity.times(f).div(1000);
      equity = equity.times(1000 + r).div(1000).plus(flow);
      days.push({ equity, flows: flow });
    }
    return { days, returns: steps.map(([r]) => r / 1000) };
  });

/** Two-day paths with the same positive season return g − 1, the second one swinging more. */
const arbPairWithGrowth = (minG: number, maxG: number) => fc
  .tuple(
    fc.double({ min: minG, max: maxG, noNaN: true }),
    fc.double({ min: 0, max: 0.5, noNaN: true }),
    fc.double({ min: 0, max: 0.5, noNaN: true }),
    fc.boolean(),
  )
  .filter(([, s, t]) => Math.abs(s - t) > 1e-6)
  .map(([g, s, t, flip]) => {
    const [steady, swinging] = s < t ? [s, t] : [t, s];
    // (1 + a)(1 + b) = g with 1 + a = √g·eˢ and 1 + b = √g·e⁻ˢ: |a − b| grows with s.
    const pair = (x: number) => (flip ? [Math.sqrt(g) * Math.exp(-x) - 1, Math.sqrt(g) * Math.exp(x) - 1] : [Math.sqrt(g) * Math.exp(x) - 1, Math.sqrt(g) * Math.exp(-x) - 1]);
    return { g, steady: pair(steady) as [number, number], swinging: pair(swinging) as [number, number] };
  });
const arbSameReturnPair = arbPairWithGrowth(1.001, 3);
const arbSameLossPair = arbPairWithGrowth(0.3, 0.999);

/** Closes of a path that starts at `start` and then earns `returns`, with no flows. */
const pathOf = (start: number, returns: readonly number[]): TDay[] => {
  const out: TDay[] = [{ equity: start, flows: 0 }];
  let e = start;
  for (const r of returns) {
    e *= 1 + r;
    out.push({ equity: e, flows: 0 });
  }
  return out;
};

/** Division members with distinct ids; scores from a small set so ties are common. */
const arbMembers = (tiers: fc.Arbitrary<number>) =>
  fc
    .array(
      fc.record({
        score: fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom(0.5, -1.25, 2.75)),
        tier: tiers,
        qualified: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
      }),
      { maxLength: 40 },
    )
    .chain((rows) =>
      fc
        .uniqueArray(fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), minLength: 1, maxLength: 6 }), {
          minLength: rows.length,
          maxLength: rows.length,
        })
        .map((ids) => rows.map((r, i): TScored => ({ ...r, userId: ids[i]! }))),
    );
const arbTier = fc.integer({ min: 0, max: TOP_TIER });

const outcomeOf = (result: ReturnType<typeof rankDivision<TScored>>) => new Map(result.map((r) => [r.member.userId, r]));

describe('season calendar', () => {
  it('seasons are ISO weeks, Monday to Monday UTC', () => {
    const s = seasonOf(new Date('2026-11-26T15:30:00Z'));
    expect(s.id).toBe('2026-W48');
    expect(s.startsAt.toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(s.endsAt.toISOString()).toBe('2026-11-30T00:00:00.000Z');
  });

  it('the ISO year is the year of the week’s Thursday', () => {
    expect(seasonOf(new Date('2027-01-01T00:00:00Z')).id).toBe('2026-W53');
    expect(seasonOf(new Date('2021-01-03T23:59:59.999Z')).id).toBe('2020-W53');
    expect(seasonOf(new Date('2021-01-04T00:00:00Z')).id).toBe('2021-W01');
    expect(seasonOf(new Date('2024-12-30T08:00:00Z')).id).toBe('2025-W01');
    expect(seasonOf(new Date('2024-12-29T23:59:59Z')).id).toBe('2024-W52');
    expect(seasonOf(new Date('2026-01-01T00:00:00Z')).id).toBe('2026-W01');
  });

  it('a season lasts seven days; its start is in it and its end in the next', () => {
    const s = seasonOf(new Date('2026-11-26T15:30:00Z'));
    expect(s.endsAt.getTime() - s.startsAt.getTime()).toBe(7 * DAY_MS);
    expect(seasonOf(s.startsAt).id).toBe(s.id);
    expect(seasonOf(new Date(s.endsAt.getTime() - 1)).id).toBe(s.id);
    expect(seasonOf(s.endsAt).id).toBe('2026-W49');
  });

  it('closedDayOf is the UTC day before', () => {
    expect(closedDayOf(new Date('2026-11-26T00:05:00Z'))).toBe('2026-11-25');
    expect(closedDayOf(new Date('2026-11-26T23:59:59.999Z'))).toBe('2026-11-25');
    expect(closedDayOf(new Date('2026-03-01T12:00:00Z'))).toBe('2026-02-28');
    expect(closedDayOf(new Date('2024-03-01T12:00:00Z'))).toBe('2024-02-29');
    expect(closedDayOf(new Date('2027-01-01T00:00:00Z'))).toBe('2026-12-31');
  });

  it('every moment lies in its season, which starts on a Monday at midnight', () => {
    fc.assert(
      fc.property(arbDate, (at) => {
        const s = seasonOf(at);
        expect(s.startsAt.getTime()).toBeLessThanOrEqual(at.getTime());
        expect(at.getTime()).toBeLessThan(s.endsAt.getTime());
        expect(s.endsAt.getTime() - s.startsAt.getTime()).toBe(7 * DAY_MS);
        expect(s.startsAt.getUTCDay()).toBe(1);
        expect(s.startsAt.getTime() % DAY_MS).toBe(0);
        expect(seasonOf(s.startsAt)).toEqual(s);
        expect(s.id).toMatch(/^\d{4}-W(0[1-9]|[1-4]\d|5[0-3])$/);
      }),
      { numRuns: 200 },
    );
  });

  it('the next season is the next week number, or week 1 of the next ISO year after 52 or 53', () => {
    fc.assert(
      fc.property(arbDate, (at) => {
        const s = seasonOf(at);
        const next = seasonOf(s.endsAt);
        const [y, w] = s.id.split('-W').map(Number) as [number, number];
        const [ny, nw] = next.id.split('-W').map(Number) as [number, number];
        if (ny === y) expect(nw).toBe(w + 1);
        else {
          expect(ny).toBe(y + 1);
          expect(nw).toBe(1);
          // A year has 53 ISO weeks when it starts on a Thursday, or on a Wednesday in a leap year.
          const jan1 = new Date(Date.UTC(y, 0, 1)).getUTCDay();
          const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
          expect(w).toBe(jan1 === 4 || (leap && jan1 === 3) ? 53 : 52);
        }
        expect(next.startsAt.getTime()).toBe(s.endsAt.getTime());
      }),
      { numRuns: 200 },
    );
  });

  it('4 January is always in week 1', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1990, max: 2100 }), (y) => {
        expect(seasonOf(new Date(Date.UTC(y, 0, 4, 12))).id).toBe(`${y}-W01`);
      }),
      { numRuns: 100 },
    );
  });

  it('closedDayOf is the day before the date of any moment', () => {
    fc.assert(
      fc.property(arbDate, (at) => {
        const day = closedDayOf(at);
        expect(new Date(`${day}T00:00:00Z`).getTime()).toBe(Math.floor(at.getTime() / DAY_MS) * DAY_MS - DAY_MS);
      }),
      { numRuns: 100 },
    );
  });
});

describe('placement', () => {
  it('places by equity against the starting balance', () => {
    expect(placementTier('999.99999999', 1000)).toBe(0);
    expect(placementTier(1000, 1000)).toBe(1);
    expect(placementTier('1999.99', 1000)).toBe(1);
    expect(placementTier(2000, 1000)).toBe(2);
    expect(placementTier('4999.99', '1000')).toBe(2);
    expect(placementTier(5000, 1000)).toBe(3);
    expect(placementTier('19999.99', 1000)).toBe(3);
    expect(placementTier(20000, 1000)).toBe(4);
    expect(placementTier(1e9, 1000)).toBe(TOP_TIER);
    expect(placementTier(0, 1000)).toBe(0);
    expect(placementTier(-50, 1000)).toBe(0);
  });

  it('a starting balance of zero or less places at the bottom', () => {
    expect(placementTier(5000, 0)).toBe(0);
    expect(placementTier(5000, -1)).toBe(0);
  });

  it('a larger equity never places lower, and the tier is a tier', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 50_000_00 }), fc.integer({ min: 0, max: 50_000_00 }), fc.integer({ min: 1, max: 10_000 }), (a, b, start) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const tLo = placementTier(dec(lo).div(100), start);
        const tHi = placementTier(dec(hi).div(100), start);
        expect(tLo).toBeLessThanOrEqual(tHi);
        expect(tHi).toBeGreaterThanOrEqual(0);
        expect(tHi).toBeLessThanOrEqual(TOP_TIER);
      }),
      { numRuns: 200 },
    );
  });

  it('qualifies with enough trades and days', () => {
    expect(qualifies(MIN_TRADES, MIN_DAYS)).toBe(true);
    expect(qualifies(MIN_TRADES - 1, MIN_DAYS)).toBe(false);
    expect(qualifies(MIN_TRADES, MIN_DAYS - 1)).toBe(false);
  });
});

describe('risk-adjusted score examples', () => {
  it('no days, no score', () => {
    expect(riskAdjusted([])).toEqual({ seasonReturn: 0, volatility: 0, score: 0, days: 0 });
    expect(dailyReturns([])).toEqual([]);
    expect(dailyReturns([{ equity: 100, flows: 0 }])).toEqual([]);
  });

  it('computes return, volatility and score', () => {
    const r = dailyReturns([
      { equity: 1000, flows: 0 },
      { equity: 1100, flows: 0 },
      { equity: 990, flows: 0 },
    ]);
    expect(r).toEqual([0.1, -0.1]);
    const s = riskAdjusted(r);
    expect(s.seasonReturn).toBeCloseTo(-0.01, 8);
    // σ of [0.1, −0.1] is 0.1, × √2.
    expect(s.volatility).toBeCloseTo(0.1 * Math.SQRT2, 8);
    // A loss is multiplied by the risk s = σ / 1 %: 100 × −0.01 × 14.142….
    expect(s.score).toBeCloseTo(100 * -0.01 * ((0.1 * Math.SQRT2) / VOLATILITY_FLOOR), 6);
    expect(s.days).toBe(2);
  });

  it('a flat but rising curve divides by the volatility floor', () => {
    const s = riskAdjusted([0.01, 0.01, 0.01]);
    expect(s.volatility).toBe(0);
    expect(s.score).toBeCloseTo(100 * (1.01 ** 3 - 1), 6);
  });

  it('a deposit is not a return; a day starting with no equity has none', () => {
    expect(dailyReturns([
      { equity: 1000, flows: 0 },
      { equity: 1500, flows: 500 },
      { equity: 1200, flows: -300 },
    ])).toEqual([0, 0]);
    expect(dailyReturns([
      { equity: 0, flows: 0 },
      { equity: 1000, flows: 1000 },
      { equity: 1100, flows: 0 },
    ])).toEqual([0.1]);
  });
});

describe('risk-adjusted score properties', () => {
  it('recovers the trading returns, flows excluded', () => {
    fc.assert(
      fc.property(arbPath, ({ days, returns }) => {
        const got = dailyReturns(days);
        expect(got).toHaveLength(returns.length);
        got.forEach((r, i) => expect(Math.abs(r - returns[i]!)).toBeLessThan(1e-12));
      }),
      { numRuns: 200 },
    );
  });

  it('is scale-invariant', () => {
    fc.assert(
      fc.property(arbPath, fc.constantFrom(0.01, 3, 1000), ({ days }, k) => {
        const base = riskAdjusted(dailyReturns(days));
        const scaled = riskAdjusted(dailyReturns(days.map((d) => ({ equity: d.equity.times(k), flows: d.flows.times(k) }))));
        expect(scaled.days).toBe(base.days);
        expect(Math.abs(scaled.score - base.score)).toBeLessThanOrEqual(1e-6);
        expect(Math.abs(scaled.seasonReturn - base.seasonReturn)).toBeLessThanOrEqual(1e-6);
        expect(Math.abs(scaled.volatility - base.volatility)).toBeLessThanOrEqual(1e-6);
      }),
      { numRuns: 200 },
    );
  });

  it('flows alone earn nothing', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.array(fc.integer({ min: -1000, max: 100_000 }), { minLength: 1, maxLength: 8 }),
        (start, flows) => {
          let e = start;
          const days: TDay[] = [{ equity: start, flows: 0 }];
          for (const f of flows) {
            const flow = Math.max(f, 1 - e); // keep the equity positive
            e += flow;
            days.push({ equity: e, flows: flow });
          }
          const r = dailyReturns(days);
          expect(r.every((x) => x === 0)).toBe(true);
          const s = riskAdjusted(r);
          expect(s.seasonReturn).toBe(0);
          expect(s.score).toBe(0);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('of two paths with the same positive return, the steadier scores at least as high', () => {
    fc.assert(
      fc.property(arbSameReturnPair, fc.integer({ min: 100, max: 1_000_000 }), ({ g, steady, swinging }, start) => {
        // The construction: same product, larger swing.
        expect(Math.abs((1 + steady[0]) * (1 + steady[1]) - (1 + swinging[0]) * (1 + swinging[1]))).toBeLessThan(1e-9);
        expect(Math.abs(swinging[0] - swinging[1])).toBeGreaterThan(Math.abs(steady[0] - steady[1]));
        const a = riskAdjusted(dailyReturns(pathOf(start, steady)));
        const b = riskAdjusted(dailyReturns(pathOf(start, swinging)));
        expect(a.seasonReturn).toBeCloseTo(g - 1, 7);
        expect(Math.abs(a.seasonReturn - b.seasonReturn)).toBeLessThanOrEqual(1e-7);
        expect(a.volatility).toBeLessThanOrEqual(b.volatility);
        // Equal up to the 8-decimal rounding when both sit on the volatility floor.
        expect(a.score).toBeGreaterThanOrEqual(b.score - 1e-6);
      }),
      { numRuns: 200 },
    );
  });

  it('of two paths with the same loss, the steadier scores at least as high (a loss is not divided by the risk)', () => {
    fc.assert(
      fc.property(arbSameLossPair, fc.integer({ min: 100, max: 1_000_000 }), ({ steady, swinging }, start) => {
        const a = riskAdjusted(dailyReturns(pathOf(start, steady)));
        const b = riskAdjusted(dailyReturns(pathOf(start, swinging)));
        expect(a.seasonReturn).toBeLessThan(0);
        expect(Math.abs(a.seasonReturn - b.seasonReturn)).toBeLessThanOrEqual(1e-7);
        expect(a.score).toBeGreaterThanOrEqual(b.score - 1e-6);
      }),
      { numRuns: 200 },
    );
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(arbPath, ({ days }) => {
        const once = riskAdjusted(dailyReturns(days));
        const again = riskAdjusted(dailyReturns(days.map((d) => ({ equity: d.equity.toString(), flows: d.flows.toString() }))));
        expect(again).toStrictEqual(once);
        expect(Number.isFinite(once.score)).toBe(true);
        expect(once.volatility).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 100 },
    );
  });
});

describe('divisions', () => {
  it('one small tier is one division; 31 players make two', () => {
    const members = (n: number) => Array.from({ length: n }, (_, i) => ({ userId: `u${String(i).padStart(3, '0')}`, startEquity: 1000 + i }));
    expect(divisionsOf([]).divisions).toBe(1);
    const one = divisionsOf(members(DIVISION_SIZE));
    expect(one.divisions).toBe(1);
    expect([...one.divisionOf.values()].every((d) => d === 1)).toBe(true);
    const two = divisionsOf(members(DIVISION_SIZE + 1));
    expect(two.divisions).toBe(2);
    expect(two.divisionOf.get('u000')).toBe(1);
    expect(two.divisionOf.get(`u${String(DIVISION_SIZE).padStart(3, '0')}`)).toBe(2);
  });

  it('splits evenly by size, smallest first, each player once', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 200 }).chain((n) =>
          fc.tuple(
            fc.constant(n),
            fc.array(fc.oneof(fc.integer({ min: 0, max: 20 }).map((x) => String(x * 500)), fc.integer({ min: 0, max: 10_000_00 }).map((c) => dec(c).div(100))), {
              minLength: n,
              maxLength: n,
            }),
          ),
        ),
        ([n, equities]) => {
          const members = equities.map((startEquity, i) => ({ userId: `p${(i * 7919) % 1000}-${i}`, startEquity }));
          const { divisions, divisionOf } = divisionsOf(members);
          expect(divisions).toBe(Math.max(1, Math.ceil(n / DIVISION_SIZE)));
          expect(divisionOf.size).toBe(n);
          for (const m of members) expect(divisionOf.has(m.userId)).toBe(true);
          const sizes = Array.from({ length: divisions }, (_, d) => members.filter((m) => divisionOf.get(m.userId) === d + 1).length);
          if (n > 0) {
            expect(Math.max(...sizes)).toBeLessThanOrEqual(DIVISION_SIZE);
            expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
            expect(Math.min(...sizes)).toBeGreaterThan(0);
            const smallest = members.reduce((a, b) => (dec(b.startEquity).lt(a.startEquity) ? b : a));
            expect(divisionOf.get(smallest.userId)).toBe(1);
          }
          // Never a smaller player in a higher division than a larger one: in order of start equity
          // (then user id) the divisions are contiguous and never go down.
          const bySize = members
            .map((m) => ({ ...m, size: dec(m.startEquity) }))
            .sort((a, b) => a.size.cmp(b.size) || (a.userId < b.userId ? -1 : 1));
          for (let i = 1; i < bySize.length; i++) {
            const step = divisionOf.get(bySize[i]!.userId)! - divisionOf.get(bySize[i - 1]!.userId)!;
            expect(step === 0 || step === 1).toBe(true);
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('rankDivision examples', () => {
  const m = (userId: string, score: number, tier = 2, qualified = true): TScored => ({ userId, score, tier, qualified });

  it('ten qualified players: the top two move up, the bottom two down', () => {
    const members = Array.from({ length: 10 }, (_, i) => m(`u${i}`, 10 - i));
    const out = rankDivision(members);
    expect(zoneSizes(10)).toEqual({ up: 2, down: 2 });
    expect(out.map((r) => r.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(out.map((r) => r.outcome)).toEqual(['promoted', 'promoted', 'stayed', 'stayed', 'stayed', 'stayed', 'stayed', 'stayed', 'relegated', 'relegated']);
  });

  it('ties share a rank and move together with the better outcome', () => {
    const scores = [9, 8, 8, 6, 5, 4, 3, 2, 2, 1];
    const out = rankDivision(scores.map((s, i) => m(`u${i}`, s)));
    expect(out.map((r) => r.rank)).toEqual([1, 2, 2, 4, 5, 6, 7, 8, 8, 10]);
    // 8 straddles the promotion edge (both promoted); 2 straddles the relegation edge (both stay).
    expect(out.map((r) => r.outcome)).toEqual(['promoted', 'promoted', 'promoted', 'stayed', 'stayed', 'stayed', 'stayed', 'stayed', 'stayed', 'relegated']);
  });

  it('the top tier is not promoted, the bottom tier not relegated, the unqualified not ranked', () => {
    const members = [...Array.from({ length: 5 }, (_, i) => m(`u${i}`, 5 - i, i === 0 ? TOP_TIER : 0)), m('x', 100, 2, false)];
    const out = rankDivision(members);
    expect(out.map((r) => [r.member.userId, r.rank, r.outcome])).toEqual([
      ['u0', 1, 'stayed'],
      ['u1', 2, 'stayed'],
      ['u2', 3, 'stayed'],
      ['u3', 4, 'stayed'],
      ['u4', 5, 'stayed'],
      ['x', null, 'stayed'],
    ]);
  });

  it('fewer than five qualified players: nobody moves', () => {
    const out = rankDivision([m('a', 3), m('b', 2), m('c', 1), m('d', 0)]);
    expect(out.every((r) => r.outcome === 'stayed')).toBe(true);
  });

  it('nextTier moves one tier within bounds', () => {
    expect(nextTier(2, 'promoted')).toBe(3);
    expect(nextTier(2, 'relegated')).toBe(1);
    expect(nextTier(2, 'stayed')).toBe(2);
    expect(nextTier(TOP_TIER, 'promoted')).toBe(TOP_TIER);
    expect(nextTier(0, 'relegated')).toBe(0);
    expect(TIERS[TOP_TIER]).toBe('diamond');
  });
});

describe('rankDivision properties', () => {
  it('ranks qualified players 1.. by competition rank; the unqualified are unranked and stay', () => {
    fc.assert(
      fc.property(arbMembers(arbTier), (members) => {
        const out = rankDivision(members);
        expect(out).toHaveLength(members.length);
        expect(new Set(out.map((r) => r.member.userId)).size).toBe(members.length);
        const qualified = members.filter((x) => x.qualified);
        const ranked = out.filter((r) => r.rank !== null);
        expect(ranked.map((r) => r.member.userId).sort()).toEqual(qualified.map((x) => x.userId).sort());
        // Ranked rows come first, in rank order, starting at 1.
        expect(out.slice(0, ranked.length)).toEqual(ranked);
        if (ranked.length > 0) expect(ranked[0]!.rank).toBe(1);
        ranked.forEach((r, i) => {
          expect(r.rank).toBe(1 + qualified.filter((x) => x.score > r.member.score).length);
          if (i > 0) expect(r.rank!).toBeGreaterThanOrEqual(ranked[i - 1]!.rank!);
        });
        for (const r of out.slice(ranked.length)) {
          expect(r.member.qualified).toBe(false);
          expect(r.rank).toBeNull();
          expect(r.outcome).toBe('stayed');
        }
      }),
      { numRuns: 200 },
    );
  });

  it('the tier only blocks moves: the top tier is never promoted, the bottom tier never relegated', () => {
    fc.assert(
      fc.property(arbMembers(arbTier), (members) => {
        const free = outcomeOf(rankDivision(members.map((x) => ({ ...x, tier: 2 }))));
        const out = rankDivision(members);
        for (const r of out) {
          if (r.member.tier === TOP_TIER) expect(r.outcome).not.toBe('promoted');
          if (r.member.tier === 0) expect(r.outcome).not.toBe('relegated');
          const would = free.get(r.member.userId)!;
          expect(r.rank).toBe(would.rank);
          const blocked = (would.outcome === 'promoted' && r.member.tier === TOP_TIER) || (would.outcome === 'relegated' && r.member.tier === 0);
          expect(r.outcome).toBe(blocked ? 'stayed' : would.outcome);
          expect(nextTier(r.member.tier, r.outcome)).toBe(r.member.tier + (r.outcome === 'promoted' ? 1 : r.outcome === 'relegated' ? -1 : 0));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('promotes at least the top zone when nobody is in the top tier, relegates at most the bottom zone', () => {
    fc.assert(
      fc.property(arbMembers(fc.integer({ min: 1, max: TOP_TIER - 1 })), (members) => {
        const out = rankDivision(members);
        const q = members.filter((x) => x.qualified).length;
        const { up, down } = zoneSizes(q);
        expect(up + down).toBeLessThanOrEqual(q);
        const promoted = out.filter((r) => r.outcome === 'promoted').length;
        const relegated = out.filter((r) => r.outcome === 'relegated').length;
        expect(promoted).toBeGreaterThanOrEqual(up);
        expect(relegated).toBeLessThanOrEqual(down);
        // With no ties, exactly the zones move.
        const scores = members.filter((x) => x.qualified).map((x) => x.score);
        if (new Set(scores).size === scores.length) {
          expect(promoted).toBe(up);
          expect(relegated).toBe(down);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('outcomes follow the scores: relegated below everyone who stays or moves up, promoted above everyone else', () => {
    fc.assert(
      fc.property(arbMembers(arbTier), (members) => {
        const out = rankDivision(members).filter((r) => r.rank !== null);
        const free = outcomeOf(rankDivision(members.map((x) => ({ ...x, tier: 2 }))));
        // A stayed player kept by the tier from the move the scores gave them is left out.
        const blocked = (r: (typeof out)[number]) => r.outcome === 'stayed' && free.get(r.member.userId)!.outcome !== 'stayed';
        const by = (o: TOutcome) => out.filter((r) => r.outcome === o && !blocked(r));
        for (const down of by('relegated'))
          for (const other of [...by('stayed'), ...by('promoted')]) expect(down.member.score).toBeLessThan(other.member.score);
        for (const up of by('promoted'))
          for (const other of [...by('stayed'), ...by('relegated')]) expect(up.member.score).toBeGreaterThanOrEqual(other.member.score);
        // Equal scores, equal outcomes, unless a tier blocks one of them.
        for (const a of out)
          for (const b of out)
            if (a.member.score === b.member.score && !blocked(a) && !blocked(b)) expect(a.outcome).toBe(b.outcome);
      }),
      { numRuns: 200 },
    );
  });

  it('nextTier stays within the tiers', () => {
    fc.assert(
      fc.property(arbTier, fc.constantFrom<TOutcome>('promoted', 'relegated', 'stayed'), (tier, outcome) => {
        const t = nextTier(tier, outcome);
        expect(t).toBeGreaterThanOrEqual(0);
        expect(t).toBeLessThanOrEqual(TOP_TIER);
        expect(Math.abs(t - tier)).toBeLessThanOrEqual(1);
      }),
      { numRuns: 50 },
    );
  });
});
