import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultLeagueView, formatCountdown, leagueViewFromParams, leagueViewToParams, qualificationNeeds, type TLeagueTier } from './leagues';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('formatCountdown', () => {
  it('shows hours, minutes and seconds, zero-padded, with no day part under a day', () => {
    expect(formatCountdown(5 * SECOND)).toEqual({ short: '00h 00m 05s', long: '0 hours, 0 minutes', isOver: false });
    expect(formatCountdown(59 * SECOND + 999)).toEqual({ short: '00h 00m 59s', long: '0 hours, 0 minutes', isOver: false });
    expect(formatCountdown(MINUTE)).toEqual({ short: '00h 01m 00s', long: '0 hours, 1 minute', isOver: false });
    expect(formatCountdown(HOUR - 1)).toEqual({ short: '00h 59m 59s', long: '0 hours, 59 minutes', isOver: false });
    expect(formatCountdown(HOUR)).toEqual({ short: '01h 00m 00s', long: '1 hour, 0 minutes', isOver: false });
    expect(formatCountdown(DAY - 1)).toEqual({ short: '23h 59m 59s', long: '23 hours, 59 minutes', isOver: false });
  });

  it('adds the day part from a whole day, singular and plural', () => {
    expect(formatCountdown(DAY)).toEqual({ short: '1d 00h 00m 00s', long: '1 day, 0 hours, 0 minutes', isOver: false });
    expect(formatCountdown(2 * DAY + 4 * HOUR + 12 * MINUTE + 5 * SECOND)).toEqual({
      short: '2d 04h 12m 05s',
      long: '2 days, 4 hours, 12 minutes',
      isOver: false,
    });
    expect(formatCountdown(DAY + HOUR + MINUTE + SECOND).long).toBe('1 day, 1 hour, 1 minute');
    expect(formatCountdown(120 * DAY + 10 * HOUR).short).toBe('120d 10h 00m 00s');
  });

  it('is over at zero and once past, and never counts below zero', () => {
    const zero = { short: '00h 00m 00s', long: '0 hours, 0 minutes', isOver: true };
    expect(formatCountdown(0)).toEqual(zero);
    expect(formatCountdown(-1)).toEqual(zero);
    expect(formatCountdown(-3 * DAY)).toEqual(zero);
    // Whole seconds only: less than a second left reads as zero (and over); one second does not.
    expect(formatCountdown(999)).toEqual(zero);
    expect(formatCountdown(SECOND).isOver).toBe(false);
  });

  it('short form adds back up to the whole seconds left (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -10 * DAY, max: 400 * DAY }), (ms) => {
        const { short, isOver } = formatCountdown(ms);
        const m = /^(?:(\d+)d )?(\d{2})h (\d{2})m (\d{2})s$/.exec(short);
        expect(m).not.toBeNull();
        const [, d, h, min, s] = m!;
        expect(Number(h)).toBeLessThan(24);
        expect(Number(min)).toBeLessThan(60);
        expect(Number(s)).toBeLessThan(60);
        if (d !== undefined) expect(Number(d)).toBeGreaterThan(0);
        const total = Number(d ?? 0) * 86_400 + Number(h) * 3600 + Number(min) * 60 + Number(s);
        expect(total).toBe(Math.max(0, Math.floor(ms / 1000)));
        expect(isOver).toBe(ms < SECOND);
      }),
    );
  });
});

describe('qualificationNeeds', () => {
  const rules = { minTrades: 3, minDays: 2 };

  it('is null once qualified, whatever the counts', () => {
    expect(qualificationNeeds({ trades: 0, days: 0, qualified: true }, rules)).toBeNull();
  });

  it('names both shortfalls, joined with "and"', () => {
    expect(qualificationNeeds({ trades: 0, days: 0, qualified: false }, rules)).toBe('3 more trades and 2 more days');
    expect(qualificationNeeds({ trades: 2, days: 1, qualified: false }, rules)).toBe('1 more trade and 1 more day');
  });

  it('names only trades when the days are met (or exceeded)', () => {
    expect(qualificationNeeds({ trades: 1, days: 2, qualified: false }, rules)).toBe('2 more trades');
    expect(qualificationNeeds({ trades: 2, days: 7, qualified: false }, rules)).toBe('1 more trade');
  });

  it('names only days when the trades are met (or exceeded)', () => {
    expect(qualificationNeeds({ trades: 3, days: 0, qualified: false }, rules)).toBe('2 more days');
    expect(qualificationNeeds({ trades: 50, days: 1, qualified: false }, rules)).toBe('1 more day');
  });

  it('is null when nothing is short, even if not yet marked qualified', () => {
    expect(qualificationNeeds({ trades: 3, days: 2, qualified: false }, rules)).toBeNull();
    expect(qualificationNeeds({ trades: 9, days: 9, qualified: false }, rules)).toBeNull();
  });
});

describe('defaultLeagueView', () => {
  const tier = (t: number, members: number): TLeagueTier => ({
    tier: t,
    tierName: (['bronze', 'silver', 'gold', 'platinum', 'diamond'] as const)[t]!,
    divisions: Math.max(1, Math.ceil(members / 30)),
    members,
  });

  it("shows a member's own tier and division, even when higher tiers have players", () => {
    const tiers = [tier(0, 40), tier(1, 10), tier(2, 5), tier(3, 0), tier(4, 2)];
    expect(defaultLeagueView({ me: { tier: 1, tierName: 'silver', division: 2 }, tiers })).toEqual({ tier: 1, division: 2 });
  });

  it("shows a non-member the first division of the highest tier with players, whatever the tiers' order", () => {
    expect(defaultLeagueView({ me: null, tiers: [tier(0, 40), tier(1, 10), tier(2, 0), tier(3, 0), tier(4, 0)] })).toEqual({ tier: 1, division: 1 });
    expect(defaultLeagueView({ me: null, tiers: [tier(4, 0), tier(2, 3), tier(0, 40), tier(3, 0), tier(1, 10)] })).toEqual({ tier: 2, division: 1 });
    expect(defaultLeagueView({ me: null, tiers: [tier(0, 1), tier(4, 1)] })).toEqual({ tier: 4, division: 1 });
  });

  it('falls back to the top tier when nobody plays (no season yet), and never names a season', () => {
    const empty = [tier(0, 0), tier(1, 0), tier(2, 0), tier(3, 0), tier(4, 0)];
    expect(defaultLeagueView({ me: null, tiers: empty })).toEqual({ tier: 4, division: 1 });
    expect(defaultLeagueView({ me: null, tiers: [] })).toEqual({ tier: 4, division: 1 });
    expect(defaultLeagueView({ me: null, tiers: [tier(0, 12)] })).not.toHaveProperty('season');
  });

  it('does not reorder the overview it is given', () => {
    const tiers = [tier(0, 1), tier(4, 0), tier(2, 1)];
    defaultLeagueView({ me: null, tiers });
    expect(tiers.map((t) => t.tier)).toEqual([0, 4, 2]);
  });
});

describe('leagueViewFromParams / leagueViewToParams', () => {
  const from = (qs: string) => leagueViewFromParams(new URLSearchParams(qs));

  it('reads a well-formed view', () => {
    expect(from('season=2026-W47&tier=2&division=3')).toEqual({ season: '2026-W47', tier: 2, division: 3 });
    expect(from('tier=0&division=1')).toEqual({ season: undefined, tier: 0, division: 1 });
    expect(from('tier=4')).toEqual({ season: undefined, tier: 4, division: undefined });
  });

  it('leaves out what is absent or malformed', () => {
    expect(from('')).toEqual({ season: undefined, tier: undefined, division: undefined });
    expect(from('season=2026-47&tier=5&division=0')).toEqual({ season: undefined, tier: undefined, division: undefined });
    expect(from('season=latest&tier=-1&division=-2')).toEqual({ season: undefined, tier: undefined, division: undefined });
    expect(from('season=x2026-W47&tier=1.5&division=2.5')).toEqual({ season: undefined, tier: undefined, division: undefined });
    expect(from('season=2026-W47x&tier=gold&division=first')).toEqual({ season: undefined, tier: undefined, division: undefined });
    expect(from('division=')).toEqual({ season: undefined, tier: undefined, division: undefined });
    expect(from('season=')).toEqual({ season: undefined, tier: undefined, division: undefined });
  });

  it('leaves out an empty tier (?tier=)', () => {
    expect(from('tier=&division=&season=')).toEqual({ season: undefined, tier: undefined, division: undefined });
  });

  it('writes only what is present, and reads back what it wrote', () => {
    expect(leagueViewToParams({}).toString()).toBe('');
    expect(leagueViewToParams({ tier: 0 }).toString()).toBe('tier=0');
    expect(leagueViewToParams({ season: '2026-W01', tier: 3, division: 2 }).toString()).toBe('season=2026-W01&tier=3&division=2');
    fc.assert(
      fc.property(
        fc.record(
          {
            season: fc.tuple(fc.integer({ min: 2000, max: 2999 }), fc.integer({ min: 1, max: 53 })).map(([y, w]) => `${y}-W${String(w).padStart(2, '0')}`),
            tier: fc.integer({ min: 0, max: 4 }),
            division: fc.integer({ min: 1, max: 500 }),
          },
          { requiredKeys: [] },
        ),
        (view) => {
          expect(leagueViewFromParams(leagueViewToParams(view))).toEqual({ season: view.season, tier: view.tier, division: view.division });
        },
      ),
    );
  });
});
