import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EVENT_KINDS, type TEventKind } from '@/db/schema/world-values';
import {
  EVENT_PROBABILITY_CEIL,
  EVENT_PROBABILITY_FLOOR,
  eventProbability,
  eventValueAfterQuiet,
  eventWindow,
  normalCdf,
  planOutcome,
  priceProbability,
  TICK_MS,
} from './outcomes';
import { stepFairValue } from './prices';
import { ORGANIZATIONS, QUESTIONS } from '@/lib/world/seed/world-data';
import { createRng } from './rng';
import { planQuestion, type TActorState, type TOrgState, type TQuestionRule } from './world-rules';

const DAY = 86_400_000;
const AT = new Date('2030-01-07T10:30:00.000Z');

/**
 * A binomial z-test: `yes` successes out of independent trials whose probabilities sum to `mean`
 * with variance `variance` (Σ p(1 − p)). Within 4 standard deviations the frequency matches the
 * probabilities; every input below is drawn from fixed seeds, so the test is deterministic (it
 * cannot flake), and a real bias of a couple of points over thousands of trials fails it.
 */
const zScore = (yes: number, mean: number, variance: number) => (yes - mean) / Math.sqrt(variance);

const price = fc.double({ min: 0.5, max: 2000, noNaN: true });
const ratio = fc.double({ min: 0.5, max: 2, noNaN: true });
const vol = fc.double({ min: 0.0005, max: 0.02, noNaN: true });
const ms = fc.integer({ min: 60_000, max: 30 * DAY });

describe('normalCdf', () => {
  it('matches known values, is symmetric and monotone', () => {
    expect(normalCdf(0)).toBe(0.5);
    expect(normalCdf(1.96)).toBeCloseTo(0.975, 4);
    expect(normalCdf(-1)).toBeCloseTo(0.158655, 5);
    fc.assert(
      fc.property(fc.double({ min: -8, max: 8, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (z, d) => {
        expect(normalCdf(z + d)).toBeGreaterThanOrEqual(normalCdf(z));
        expect(normalCdf(z) + normalCdf(-z)).toBeCloseTo(1, 12);
      }),
    );
  });
});

describe('priceProbability (a price question’s odds from the distance to the strike, volatility and time left)', () => {
  it('is a probability, and "above" and "below" are complements', () => {
    fc.assert(
      fc.property(price, ratio, vol, ms, (p, r, v, t) => {
        const q = { price: p, threshold: p * r, volatility: v, ms: t };
        const above = priceProbability({ ...q, comparison: 'above' });
        const below = priceProbability({ ...q, comparison: 'below' });
        expect(above).toBeGreaterThanOrEqual(0);
        expect(above).toBeLessThanOrEqual(1);
        expect(above + below).toBeCloseTo(1, 12);
      }),
    );
  });

  it('rises with the price and falls with the strike for "above"', () => {
    fc.assert(
      fc.property(price, ratio, vol, ms, fc.double({ min: 1.001, max: 1.5, noNaN: true }), (p, r, v, t, up) => {
        const q = { threshold: p * r, volatility: v, ms: t, comparison: 'above' as const };
        expect(priceProbability({ ...q, price: p * up })).toBeGreaterThanOrEqual(priceProbability({ ...q, price: p }));
        expect(priceProbability({ ...q, price: p, threshold: p * r * up })).toBeLessThanOrEqual(priceProbability({ ...q, price: p }));
      }),
    );
  });

  it('is ½ at the walk’s median, moves toward ½ with more volatility or time, and is certain with none left', () => {
    fc.assert(
      fc.property(price, vol, ms, (p, v, t) => {
        const sd2 = v * v * (t / TICK_MS);
        expect(priceProbability({ price: p, threshold: p * Math.exp(-sd2 / 2), volatility: v, ms: t, comparison: 'above' })).toBeCloseTo(0.5, 6);
        // Deep in the money: more time (or volatility) only makes it less sure.
        const deep = { price: p, threshold: p * 0.7, comparison: 'above' as const };
        expect(priceProbability({ ...deep, volatility: v, ms: t * 2 })).toBeLessThanOrEqual(priceProbability({ ...deep, volatility: v, ms: t }) + 1e-12);
        expect(priceProbability({ ...deep, volatility: v, ms: 0 })).toBe(1);
        expect(priceProbability({ ...deep, volatility: 0, ms: t })).toBe(1);
        expect(priceProbability({ price: p, threshold: p, volatility: v, ms: 0, comparison: 'above' })).toBe(0);
        expect(priceProbability({ price: p, threshold: p, volatility: v, ms: 0, comparison: 'below' })).toBe(0);
      }),
    );
  });

  it('gives the seed’s SOLR question the probability the seed stores', () => {
    const q = QUESTIONS.find((x) => x.price)!;
    const org = ORGANIZATIONS.find((o) => o.id === q.price!.org)!;
    const p = priceProbability({ price: Number(org.price), threshold: q.price!.threshold, comparison: q.price!.comparison, volatility: Number(org.volatility), ms: q.days * DAY });
    expect(p.toFixed(6)).toBe(q.price!.probability);
  });

  it('matches the tick’s own walk (stepFairValue, one step a game minute): z-test at 4σ over 3,000 paths', () => {
    const paths = 3000;
    const ticks = 240; // four game hours
    const q = { price: 100, volatility: 0.006, ms: ticks * TICK_MS };
    // Three strikes: below, at and above the price (the walk's spread over 4 h is about ±9%).
    for (const threshold of [95, 100, 104]) {
      const p = priceProbability({ ...q, threshold, comparison: 'above' });
      let yes = 0;
      for (let i = 0; i < paths; i++) {
        const rng = createRng(`walk-${threshold}-${i}`);
        let x = q.price;
        for (let k = 0; k < ticks; k++) x = stepFairValue({ fairValue: x, volatility: q.volatility, push: 0 }, rng);
        if (x > threshold) yes++;
      }
      expect(Math.abs(zScore(yes, paths * p, paths * p * (1 - p))), `strike ${threshold}: ${yes}/${paths} vs p=${p}`).toBeLessThan(4);
    }
  });
});

describe('eventProbability (an event question’s odds from its kind, the organization and its window)', () => {
  const window = (days: number) => ({ createdAt: AT, resolutionDate: new Date(AT.getTime() + days * DAY) });
  it('stays within its bounds, grows with the window and with how eventful the organization is', () => {
    fc.assert(
      fc.property(fc.constantFrom(...EVENT_KINDS), fc.double({ min: 0.1, max: 30, noNaN: true }), vol, (kind: TEventKind, days, v) => {
        const p = eventProbability({ eventKind: kind, volatility: v, ...window(days) });
        expect(p).toBeGreaterThanOrEqual(EVENT_PROBABILITY_FLOOR);
        expect(p).toBeLessThanOrEqual(EVENT_PROBABILITY_CEIL);
        expect(eventProbability({ eventKind: kind, volatility: v, ...window(days + 1) })).toBeGreaterThanOrEqual(p);
        expect(eventProbability({ eventKind: kind, volatility: v * 1.5, ...window(days) })).toBeGreaterThanOrEqual(p);
      }),
    );
    // Scandals are rarer than launches; a named executive talks more than either.
    const at = (k: TEventKind) => eventProbability({ eventKind: k, volatility: 0.006, ...window(4) });
    expect(at('scandal')).toBeLessThan(at('product_launch'));
    expect(at('product_launch')).toBeLessThan(at('executive_statement'));
  });

  it('ends its event window an hour before the date, so the news runs before it', () => {
    const w = eventWindow(AT, new Date(AT.getTime() + DAY));
    expect(w.end.getTime()).toBe(AT.getTime() + DAY - 3_600_000);
  });
});

const ORGS: (TOrgState & { volatility: number })[] = [
  { id: 'org-a', name: 'Acme', ticker: 'ACME', price: 120, volatility: 0.005 },
  { id: 'org-b', name: 'Beta Labs', ticker: 'BETA', price: 8.5, volatility: 0.009 },
  { id: 'org-c', name: 'Cirrus', ticker: 'CIRR', price: 42, volatility: 0.004 },
];
const ACTORS: TActorState[] = [
  { id: 'actor-ann', name: 'Ann', organizationId: 'org-a' },
  { id: 'actor-bob', name: 'Bob', organizationId: null },
];

/** A question and its odds as the tick makes them (planQuestion, then planOutcome from the question's fork). */
const born = (seed: string) => {
  const rng = createRng(seed);
  const q = planQuestion(rng, { orgs: ORGS, actors: ACTORS, at: AT })!;
  const org = ORGS.find((o) => o.id === q.rule.organizationId)!;
  return { q, odds: planOutcome(rng.fork('outcome'), { rule: q.rule, org, createdAt: AT, resolutionDate: q.resolutionDate }) };
};

describe('planOutcome', () => {
  it('is deterministic; a price question has odds and no draw; an event question has a draw, and a YES its moment inside the window', () => {
    fc.assert(
      fc.property(fc.string(), (seed) => {
        const { q, odds } = born(seed);
        expect(born(seed).odds).toEqual(odds);
        expect(odds.probability).toBeGreaterThanOrEqual(0);
        expect(odds.probability).toBeLessThanOrEqual(1);
        expect(Number(odds.probability.toFixed(6))).toBe(odds.probability);
        if (q.rule.kind === 'price') {
          expect(odds.outcome).toBeNull();
          expect(odds.eventAt).toBeNull();
          return;
        }
        expect(['YES', 'NO']).toContain(odds.outcome);
        if (odds.outcome === 'NO') expect(odds.eventAt).toBeNull();
        else {
          const w = eventWindow(AT, q.resolutionDate);
          expect(odds.eventAt!.getTime()).toBeGreaterThan(AT.getTime());
          expect(odds.eventAt!.getTime()).toBeLessThanOrEqual(w.end.getTime());
          expect(odds.eventAt!.getTime()).toBeLessThan(q.resolutionDate.getTime());
        }
      }),
    );
  });

  it('outcomes match their probabilities over many questions: binomial z-test at 4σ, overall and per decile', () => {
    const drawn: { p: number; yes: boolean }[] = [];
    for (let i = 0; drawn.length < 8000; i++) {
      const { q, odds } = born(`calibration-${i}`);
      if (q.rule.kind === 'event') drawn.push({ p: odds.probability, yes: odds.outcome === 'YES' });
    }
    const test = (rows: typeof drawn) => {
      const yes = rows.filter((r) => r.yes).length;
      const mean = rows.reduce((s, r) => s + r.p, 0);
      const variance = rows.reduce((s, r) => s + r.p * (1 - r.p), 0);
      return { yes, mean, z: zScore(yes, mean, variance) };
    };
    const all = test(drawn);
    expect(Math.abs(all.z), `${all.yes} YES of ${drawn.length}, expected ${all.mean.toFixed(1)}`).toBeLessThan(4);
    // Not all YES (the bug this replaces) nor all NO: the odds span a range.
    expect(all.yes / drawn.length).toBeGreaterThan(0.15);
    expect(all.yes / drawn.length).toBeLessThan(0.7);
    let buckets = 0;
    for (let d = 0; d < 10; d++) {
      const rows = drawn.filter((r) => Math.min(9, Math.floor(r.p * 10)) === d);
      if (rows.length < 100) continue;
      buckets++;
      const b = test(rows);
      expect(Math.abs(b.z), `decile ${d}: ${b.yes} YES of ${rows.length}, expected ${b.mean.toFixed(1)}`).toBeLessThan(4);
    }
    expect(buckets).toBeGreaterThanOrEqual(3);
  });

  it('a quiet stretch is evidence for NO exactly as eventValueAfterQuiet says (z-test at 4σ)', () => {
    const rule: TQuestionRule = { kind: 'event', organizationId: 'org-a', actorId: null, eventKind: 'product_launch' };
    const resolutionDate = new Date(AT.getTime() + 5 * DAY);
    const w = eventWindow(AT, resolutionDate);
    const p = eventProbability({ eventKind: 'product_launch', volatility: 0.006, createdAt: AT, resolutionDate });
    for (const quiet of [0.25, 0.5, 0.8]) {
      const by = AT.getTime() + quiet * (w.end.getTime() - w.start.getTime());
      let still = 0;
      let yes = 0;
      for (let i = 0; i < 6000; i++) {
        const odds = planOutcome(createRng(`quiet-${i}`), { rule, org: { price: 120, volatility: 0.006 }, createdAt: AT, resolutionDate });
        if (odds.outcome === 'YES' && odds.eventAt!.getTime() <= by) continue; // its news already came
        still++;
        if (odds.outcome === 'YES') yes++;
      }
      const v = eventValueAfterQuiet(p, quiet);
      expect(Math.abs(zScore(yes, still * v, still * v * (1 - v))), `quiet ${quiet}: ${yes}/${still} vs ${v}`).toBeLessThan(4);
    }
    expect(eventValueAfterQuiet(0.4, 0)).toBeCloseTo(0.4, 12);
    expect(eventValueAfterQuiet(0.4, 1)).toBe(0);
  });
});
