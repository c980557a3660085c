import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BAN_PENALTY,
  LEVELS,
  MAX_REPORT_PENALTY,
  MAX_REPUTATION,
  REPORT_PENALTY,
  WEIGHTS,
  levelOf,
  logScale,
  reputationOf,
  type TReputationInputs,
} from './score';

const ZERO: TReputationInputs = {
  closedPositions: 0,
  winningPositions: 0,
  volume: 0,
  leagueScore: null,
  resolvedForecasts: 0,
  brier: null,
  followers: 0,
  engagement: 0,
  points: 0,
  referrals: 0,
  upheldReports: 0,
  banned: false,
};

const STRONG: TReputationInputs = {
  closedPositions: 200,
  winningPositions: 150,
  volume: 1_000_000,
  leagueScore: 2,
  resolvedForecasts: 100,
  brier: 0.1,
  followers: 1_000,
  engagement: 10_000,
  points: 2_000,
  referrals: 50,
  upheldReports: 0,
  banned: false,
};

/** Closed and winning positions, winning never more than closed. */
const arbPositions = fc
  .tuple(fc.integer({ min: 0, max: 500 }), fc.integer({ min: 0, max: 500 }))
  .map(([a, b]) => (a <= b ? { closedPositions: b, winningPositions: a } : { closedPositions: a, winningPositions: b }));
/** No forecasts and no Brier score, or some forecasts and a Brier score in [0, 1]. */
const arbForecasts = fc.oneof(
  fc.constant({ resolvedForecasts: 0, brier: null as number | null }),
  fc.record({ resolvedForecasts: fc.integer({ min: 1, max: 300 }), brier: fc.double({ min: 0, max: 1, noNaN: true }) as fc.Arbitrary<number | null> }),
);
const arbInputs = (penalties = true): fc.Arbitrary<TReputationInputs> =>
  fc
    .tuple(
      arbPositions,
      arbForecasts,
      fc.record({
        volume: fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 100_000_000 })),
        leagueScore: fc.option(fc.double({ min: -10, max: 10, noNaN: true }), { nil: null }),
        followers: fc.oneof(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 100_000 })),
        engagement: fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 1_000_000 })),
        points: fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100_000 })),
        referrals: fc.integer({ min: 0, max: 200 }),
        upheldReports: penalties ? fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 2, arbitrary: fc.integer({ min: 0, max: 20 }) }) : fc.constant(0),
        banned: penalties ? fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }) : fc.constant(false),
      }),
    )
    .map(([positions, forecasts, rest]) => ({ ...positions, ...forecasts, ...rest }));
const arbMore = fc.oneof(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 1_000_000 }));

describe('reputation examples', () => {
  it('all zeros is a newcomer with no score', () => {
    const r = reputationOf(ZERO);
    expect(r.score).toBe(0);
    expect(r.level).toBe('newcomer');
    expect(r.parts.map((p) => [p.key, p.value, p.contribution])).toEqual([
      ['trading', 0, 0],
      ['accuracy', 0, 0],
      ['social', 0, 0],
      ['community', 0, 0],
    ]);
    expect(r.penalties.map((p) => p.contribution)).toEqual([-0, -0]);
  });

  it('a strong profile is legendary', () => {
    const r = reputationOf(STRONG);
    expect(r.score).toBeGreaterThanOrEqual(800);
    expect(r.level).toBe('legendary');
    // Saturated log scales: social and community are full.
    expect(r.parts.find((p) => p.key === 'social')!.contribution).toBe(200);
    expect(r.parts.find((p) => p.key === 'community')!.contribution).toBe(200);
  });

  it('the weights add up to the whole score', () => {
    expect(Object.values(WEIGHTS).reduce((s, w) => s + w, 0)).toBeCloseTo(1, 12);
  });

  it('penalties: 40 per upheld report up to 400, 500 for a ban', () => {
    const base = reputationOf(STRONG).score;
    expect(reputationOf({ ...STRONG, upheldReports: 1 }).score).toBe(base - REPORT_PENALTY);
    expect(reputationOf({ ...STRONG, upheldReports: 10 }).score).toBe(base - MAX_REPORT_PENALTY);
    expect(reputationOf({ ...STRONG, upheldReports: 50 }).score).toBe(base - MAX_REPORT_PENALTY);
    expect(reputationOf({ ...STRONG, banned: true }).score).toBe(base - BAN_PENALTY);
    expect(reputationOf({ ...STRONG, banned: true, upheldReports: 20 }).score).toBe(Math.max(0, base - BAN_PENALTY - MAX_REPORT_PENALTY));
    expect(reputationOf({ ...ZERO, banned: true, upheldReports: 3 }).score).toBe(0);
  });

  it('few forecasts or positions are trusted less than many at the same rate', () => {
    const few = reputationOf({ ...ZERO, resolvedForecasts: 2, brier: 0.1 });
    const many = reputationOf({ ...ZERO, resolvedForecasts: 200, brier: 0.1 });
    expect(few.score).toBeLessThan(many.score);
    const fewWins = reputationOf({ ...ZERO, closedPositions: 2, winningPositions: 2 });
    const manyWins = reputationOf({ ...ZERO, closedPositions: 200, winningPositions: 200 });
    expect(fewWins.score).toBeLessThan(manyWins.score);
  });

  it('levels by threshold', () => {
    expect(LEVELS.map((l) => l.min)).toEqual([0, 200, 400, 600, 800]);
    expect(levelOf(0)).toBe('newcomer');
    expect(levelOf(199)).toBe('newcomer');
    expect(levelOf(200)).toBe('contributor');
    expect(levelOf(399)).toBe('contributor');
    expect(levelOf(400)).toBe('trusted');
    expect(levelOf(600)).toBe('respected');
    expect(levelOf(799)).toBe('respected');
    expect(levelOf(800)).toBe('legendary');
    expect(levelOf(MAX_REPUTATION)).toBe('legendary');
  });

  it('logScale saturates at its target', () => {
    expect(logScale(0, 100)).toBe(0);
    expect(logScale(-5, 100)).toBe(0);
    expect(logScale(100, 100)).toBe(1);
    expect(logScale(1e9, 100)).toBe(1);
    expect(logScale(10, 100)).toBeCloseTo(Math.log(11) / Math.log(101), 12);
  });
});

describe('reputation properties', () => {
  it('the score is an integer in [0, MAX_REPUTATION], its level is levelOf(score), each part is in [0, 1]', () => {
    fc.assert(
      fc.property(arbInputs(), (inp) => {
        const r = reputationOf(inp);
        expect(Number.isInteger(r.score)).toBe(true);
        expect(r.score).toBeGreaterThanOrEqual(0);
        expect(r.score).toBeLessThanOrEqual(MAX_REPUTATION);
        expect(r.level).toBe(levelOf(r.score));
        for (const p of r.parts) {
          expect(p.value).toBeGreaterThanOrEqual(0);
          expect(p.value).toBeLessThanOrEqual(1);
          // The contribution is rounded from the unrounded value, the value shown to 4 decimals:
          // the two agree to within the rounding of each.
          expect(Number.isInteger(p.contribution)).toBe(true);
          expect(Math.abs(p.contribution - MAX_REPUTATION * p.weight * p.value)).toBeLessThanOrEqual(0.5 + MAX_REPUTATION * p.weight * 5e-5 + 1e-9);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(arbInputs(), (inp) => {
        expect(reputationOf({ ...inp })).toStrictEqual(reputationOf(inp));
      }),
      { numRuns: 100 },
    );
  });

  it('without penalties the score is the sum of the contributions', () => {
    fc.assert(
      fc.property(arbInputs(false), (inp) => {
        const r = reputationOf(inp);
        const sum = r.parts.reduce((s, p) => s + p.contribution, 0);
        expect(r.score).toBe(Math.min(MAX_REPUTATION, sum));
        expect(r.penalties.every((p) => p.contribution === 0)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('with penalties the score is the contributions, penalties included, kept in [0, 1000]', () => {
    fc.assert(
      fc.property(arbInputs(), (inp) => {
        const r = reputationOf(inp);
        const sum = [...r.parts, ...r.penalties].reduce((s, p) => s + p.contribution, 0);
        expect(r.score).toBe(Math.max(0, Math.min(MAX_REPUTATION, sum)));
      }),
      { numRuns: 200 },
    );
  });

  const field = (key: 'followers' | 'engagement' | 'points' | 'referrals' | 'volume') =>
    it(`more ${key} never lowers the score`, () => {
      fc.assert(
        fc.property(arbInputs(), arbMore, (inp, more) => {
          expect(reputationOf({ ...inp, [key]: inp[key] + more }).score).toBeGreaterThanOrEqual(reputationOf(inp).score);
        }),
        { numRuns: 100 },
      );
    });
  field('followers');
  field('engagement');
  field('points');
  field('referrals');
  field('volume');

  it('more winning positions out of as many closed never lowers the score', () => {
    fc.assert(
      fc.property(arbInputs(), fc.integer({ min: 1, max: 500 }), (inp, more) => {
        const winning = Math.min(inp.closedPositions, inp.winningPositions + more);
        expect(reputationOf({ ...inp, winningPositions: winning }).score).toBeGreaterThanOrEqual(reputationOf(inp).score);
      }),
      { numRuns: 100 },
    );
  });

  it('a better league score never lowers the score', () => {
    fc.assert(
      fc.property(arbInputs(), fc.double({ min: 0, max: 10, noNaN: true }), (inp, more) => {
        if (inp.leagueScore === null) return;
        expect(reputationOf({ ...inp, leagueScore: inp.leagueScore + more }).score).toBeGreaterThanOrEqual(reputationOf(inp).score);
      }),
      { numRuns: 100 },
    );
  });

  it('a lower (better) Brier score never lowers the score', () => {
    fc.assert(
      fc.property(arbInputs(), fc.double({ min: 0, max: 1, noNaN: true }), (inp, factor) => {
        if (inp.brier === null) return;
        expect(reputationOf({ ...inp, brier: inp.brier * factor }).score).toBeGreaterThanOrEqual(reputationOf(inp).score);
      }),
      { numRuns: 100 },
    );
  });

  it('more upheld reports or a ban never raises the score', () => {
    fc.assert(
      fc.property(arbInputs(), fc.integer({ min: 1, max: 20 }), (inp, more) => {
        const base = reputationOf(inp).score;
        expect(reputationOf({ ...inp, upheldReports: inp.upheldReports + more }).score).toBeLessThanOrEqual(base);
        expect(reputationOf({ ...inp, banned: true }).score).toBeLessThanOrEqual(base);
      }),
      { numRuns: 100 },
    );
  });
});
