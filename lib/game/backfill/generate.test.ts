import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACTORS, ORGANIZATIONS, POOLS, QUESTIONS } from '@/lib/world/seed/world-data';
import { PERP_TRADES_PER_TICK, TRADES_PER_TICK } from '../npc/plan';
import { POOL_ACT_CHANCE } from '../pools/plan';
import { fulfils, type TEventRule } from '../world-rules';
import { EARLY_DENSITY, FULL_DENSITY_DAYS, generateHistory, POOL_TRADES_PER_LOOK, normalCdf, type TBackfillAction, type TBackfillWorld, type THistory } from './generate';

const DAY = 86_400_000;
const END = new Date('2030-01-15T10:17:23.000Z');

/** The seeded world, as backfillHistory reads it from a fresh database. */
const world = (end: Date): TBackfillWorld => ({
  orgs: ORGANIZATIONS.map((o) => ({ id: o.id, name: o.name, ticker: o.ticker, price: Number(o.price), volatility: Number(o.volatility) })),
  actors: ACTORS.map((a) => ({ id: `actor-${a.slug}`, name: a.name, organizationId: a.org, cash: 10_000 })),
  markets: QUESTIONS.map((q) => ({
    id: q.id,
    yesShares: q.yes,
    noShares: q.no,
    resolutionDate: new Date(end.getTime() + q.days * DAY),
    rule: q.price ? { kind: 'price' as const, organizationId: q.price.org, ticker: q.price.ticker, comparison: q.price.comparison, threshold: q.price.threshold } : null,
  })),
  pools: POOLS.map((p) => ({ id: p.id, accountUserId: `account-${p.id}`, cash: Number(p.value) })),
});

const run = (seed: string, end = END, days = 3) => generateHistory({ seed, end, days, stepMinutes: 60, world: world(end) });

const isTrade = (a: TBackfillAction) => a.kind === 'buy' || a.kind === 'sell' || a.kind === 'open' || a.kind === 'close';
const times = (h: THistory) => [
  ...h.actions.map((a) => a.at),
  ...h.events.map((e) => e.at),
  ...h.perpPoints.map((p) => p.at),
  ...h.marketPoints.map((p) => p.at),
  ...h.navPoints.map((p) => p.at),
];
const increasing = (ts: readonly Date[]) => ts.every((t, i) => i === 0 || t.getTime() > ts[i - 1]!.getTime());
const bySeries = <T extends { at: Date }>(rows: readonly T[], key: (r: T) => string) => {
  const m = new Map<string, Date[]>();
  for (const r of rows) m.set(key(r), [...(m.get(key(r)) ?? []), r.at]);
  return [...m.values()];
};

const seeds = fc.string({ minLength: 1, maxLength: 12 });
const ends = fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2032, 0, 1) }).map((ms) => new Date(ms));

// Timeouts: CPU-bound generation of whole months takes seconds on an idle machine and a minute or
// more on a loaded one (CI's two cores under the suite's two workers); the benchmark times it.
describe('generateHistory', { timeout: 240_000 }, () => {
  it('walks 30 days of the seeded world: trades, news, questions resolved, prices landing on today’s', () => {
    const h = run('playmoney', END, 30);
    expect(h.start.getTime()).toBe(END.getTime() - 30 * DAY);
    expect(h.steps).toBe(720);
    const kinds = new Set(h.actions.map((a) => a.kind));
    expect([...kinds].sort()).toEqual(['buy', 'close', 'create', 'open', 'resolve', 'sell']);
    expect(h.questions.filter((q) => q.outcome !== null).length).toBeGreaterThanOrEqual(5);
    expect(new Set(h.questions.map((q) => q.outcome)).size).toBe(3); // YES, NO and still open
    for (const o of ORGANIZATIONS) {
      expect(h.final.find((f) => f.ticker === o.ticker)?.fair).toBe(Number(o.price));
      const series = h.perpPoints.filter((p) => p.ticker === o.ticker).map((p) => p.index);
      expect(series).toHaveLength(719);
      expect(Math.max(...series) / Math.min(...series)).toBeGreaterThan(1.05);
    }
    expect(h.events.length).toBeGreaterThan(300);
  });

  it('same seed → the identical history; another seed → a different one', () => {
    fc.assert(
      fc.property(seeds, seeds, ends, (a, b, end) => {
        fc.pre(a !== b);
        const h = run(a, end);
        expect(run(a, end)).toEqual(h);
        const other = run(b, end);
        expect(other.perpPoints).not.toEqual(h.perpPoints);
      }),
      { numRuns: 8 },
    );
  });

  it('keeps prediction prices in (0, 1), perp prices and NAVs above 0, and every time inside the window, increasing', () => {
    fc.assert(
      fc.property(seeds, ends, (seed, end) => {
        const h = run(seed, end);
        for (const p of h.marketPoints) {
          expect(Number(p.yesPrice)).toBeGreaterThan(0);
          expect(Number(p.yesPrice)).toBeLessThan(1);
        }
        for (const p of h.perpPoints) {
          expect(p.mark).toBeGreaterThan(0);
          expect(p.index).toBeGreaterThan(0);
        }
        for (const p of h.navPoints) expect(Number(p.nav)).toBeGreaterThan(0);
        for (const t of times(h)) {
          expect(t.getTime()).toBeGreaterThan(h.start.getTime());
          expect(t.getTime()).toBeLessThan(end.getTime());
        }
        // Trades strictly in order; every action in order; each chart series strictly increasing.
        expect(increasing(h.actions.filter(isTrade).map((a) => a.at))).toBe(true);
        expect(h.actions.every((a, i) => i === 0 || a.at.getTime() >= h.actions[i - 1]!.at.getTime())).toBe(true);
        for (const s of [...bySeries(h.perpPoints, (p) => p.ticker), ...bySeries(h.marketPoints, (p) => p.market), ...bySeries(h.navPoints, (p) => p.poolId)]) {
          expect(increasing(s)).toBe(true);
        }
      }),
      { numRuns: 8 },
    );
  });

  it('resolves questions by their rules, at or before now, and never trades a question after its date', () => {
    fc.assert(
      fc.property(seeds, ends, (seed, end) => {
        const h = run(seed, end, 6);
        for (const q of h.questions) {
          if (q.outcome === null) {
            expect(q.resolutionDate.getTime()).toBeGreaterThan(end.getTime() - 3_600_000);
            continue;
          }
          expect(q.resolvedAt!.getTime()).toBeLessThanOrEqual(end.getTime());
          // Due, or an event question its news fulfilled (YES, as soon as it happened).
          if (q.resolvedAt!.getTime() < q.resolutionDate.getTime()) expect([q.rule.kind, q.outcome]).toEqual(['event', 'YES']);
          else expect(q.resolvedAt!.getTime()).toBeLessThan(q.resolutionDate.getTime() + 3_600_000);
          if (q.rule.kind === 'price') {
            const price = h.perpPoints.find((p) => p.ticker === (q.rule as { ticker: string }).ticker && p.at.getTime() === q.resolvedAt!.getTime())!.index;
            const above = price > q.rule.threshold;
            const below = price < q.rule.threshold;
            expect(q.outcome).toBe((q.rule.comparison === 'above' ? above : below) ? 'YES' : 'NO');
          }
        }
        const dates = new Map(h.questions.map((q) => [q.key, q.resolutionDate]));
        for (const a of h.actions) {
          if ((a.kind === 'buy' || a.kind === 'sell') && dates.has(a.market)) expect(a.at.getTime()).toBeLessThan(dates.get(a.market)!.getTime());
        }
      }),
      { numRuns: 6 },
    );
  });
});

describe('event questions in the past follow the world’s draw', { timeout: 240_000 }, () => {
  it('a YES gets its news before its date and resolves YES then; a NO never gets its news and resolves NO at its date', () => {
    const h = run('draws', END, 30);
    const events = h.questions.filter((q) => q.rule.kind === 'event' && q.outcome !== null);
    expect(events.filter((q) => q.odds.outcome === 'YES').length).toBeGreaterThanOrEqual(3);
    expect(events.filter((q) => q.odds.outcome === 'NO').length).toBeGreaterThanOrEqual(3);
    for (const q of events) {
      const rule = q.rule as TEventRule;
      expect(q.outcome).toBe(q.odds.outcome);
      const news = h.events.filter((e) => fulfils(rule, e) && e.at.getTime() > q.createdAt.getTime() && e.at.getTime() <= q.resolutionDate.getTime());
      if (q.odds.outcome === 'NO') {
        expect(news, q.key).toHaveLength(0);
        expect(q.resolvedAt!.getTime()).toBeGreaterThanOrEqual(q.resolutionDate.getTime());
      } else {
        expect(news.length, q.key).toBeGreaterThanOrEqual(1);
        expect(news[0]!.at.getTime()).toBeGreaterThanOrEqual(Math.min(q.odds.eventAt!.getTime(), q.resolutionDate.getTime() - 3_600_000));
        expect(q.resolvedAt!.getTime()).toBeLessThan(q.resolutionDate.getTime());
      }
    }
  });
});

describe('normalCdf', () => {
  it('matches known values and is monotone', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 6);
    expect(normalCdf(1.96)).toBeCloseTo(0.975, 3);
    expect(normalCdf(-1.96)).toBeCloseTo(0.025, 3);
    fc.assert(fc.property(fc.double({ min: -8, max: 8, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (z, d) => normalCdf(z + d) >= normalCdf(z)));
  });
});

describe('density: every day of the past as busy as a live day', { timeout: 240_000 }, () => {
  const h = run('playmoney', END, 30);
  /** Rows per game day, day 0 the last 24 hours before END. */
  const perDay = <T>(rows: readonly T[], at: (r: T) => Date) => {
    const days = new Array<number>(30).fill(0);
    for (const r of rows) days[Math.floor((END.getTime() - at(r).getTime() - 1) / DAY)]! += 1;
    return days;
  };
  const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const avg = (r: { min: number; max: number }) => (r.min + r.max) / 2;
  const predictions = perDay(h.actions.filter((a) => a.kind === 'buy' || a.kind === 'sell'), (a) => a.at);
  const npcPerps = perDay(h.actions.filter((a) => (a.kind === 'open' || a.kind === 'close') && !a.trader.poolId), (a) => a.at);
  const poolPerps = perDay(h.actions.filter((a) => (a.kind === 'open' || a.kind === 'close') && !!a.trader.poolId), (a) => a.at);

  it('draws each minute what the live tick draws: trades per day near the live plan’s, every day (row counts)', () => {
    console.info('[backfill density] prediction trades per day, newest first:', predictions.join(' '));
    console.info('[backfill density] NPC perp trades per day:', npcPerps.join(' '), '· pools’:', poolPerps.join(' '));
    expect(EARLY_DENSITY).toBe(1);
    // A live day (lib/game/npc/plan.ts, one tick a minute) draws these many trades; a drawn trade
    // whose trader sees no edge (or has no cash) is not made, and news adds its own: each day of
    // the past lands between a quarter and twice the draws, and within half and twice its month's mean.
    const draws = { predictions: avg(TRADES_PER_TICK) * 1440, npcPerps: avg(PERP_TRADES_PER_TICK) * 1440, poolPerps: POOLS.length * POOL_ACT_CHANCE.quiet * avg(POOL_TRADES_PER_LOOK) * 1440 };
    for (const [name, days] of Object.entries({ predictions, npcPerps, poolPerps })) {
      const live = draws[name as keyof typeof draws];
      const m = mean(days.slice(0, 29));
      for (const [i, d] of days.slice(0, 29).entries()) {
        expect(d, `${name}, day ${i}`).toBeGreaterThan(live / 4);
        expect(d, `${name}, day ${i}`).toBeLessThan(live * 2);
        expect(d, `${name}, day ${i}`).toBeGreaterThan(m / 2);
        expect(d, `${name}, day ${i}`).toBeLessThan(m * 2);
      }
    }
    // No slope either: the first week as busy as the last.
    const all = predictions.map((p, i) => p + npcPerps[i]! + poolPerps[i]!);
    const ratio = mean(all.slice(30 - FULL_DENSITY_DAYS)) / mean(all.slice(1, FULL_DENSITY_DAYS + 1));
    expect(ratio).toBeGreaterThan(0.75);
    expect(ratio).toBeLessThan(1.33);
  });

  it('charts have the same points every day, and every pool’s NAV moves nearly every hour', () => {
    const tickers = ORGANIZATIONS.length;
    const perpPoints = perDay(h.perpPoints, (p) => p.at);
    expect(Math.min(...perpPoints.slice(1, 29))).toBe(24 * tickers);
    for (const pool of POOLS) {
      const navs = h.navPoints.filter((p) => p.poolId === pool.id);
      const navDays = perDay(navs, (p) => p.at);
      expect(Math.min(...navDays.slice(1, 29))).toBe(24);
      let moved = 0;
      for (let i = 1; i < navs.length; i++) if (navs[i]!.nav !== navs[i - 1]!.nav) moved++;
      expect(moved / (navs.length - 1), pool.id).toBeGreaterThan(0.9);
      // No flat stretch of a day.
      let flat = 0;
      let longest = 0;
      for (let i = 1; i < navs.length; i++) longest = Math.max(longest, (flat = navs[i]!.nav === navs[i - 1]!.nav ? flat + 1 : 0));
      expect(longest, pool.id).toBeLessThan(24);
    }
  });
});
