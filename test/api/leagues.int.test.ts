/**
 * Leagues under the test clock: a week of daily closes, the season's close (scores, ranks,
 * promotion and relegation), the next season seated by outcome, season after season; and the
 * routes GET /api/leagues, /api/leagues/division and /api/users/{userId}/leagues.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GET as divisionRoute } from '@/app/api/leagues/division/route';
import { GET as overviewRoute } from '@/app/api/leagues/route';
import { POST as buyRoute } from '@/app/api/markets/predictions/[id]/buy/route';
import { GET as historyRoute } from '@/app/api/users/[userId]/leagues/route';
import { getDb, withTransaction } from '@/db/client';
import { equitySnapshots, leagueMembers, leagueSeasons, users, type TUserRow } from '@/db/schema';
import { setFixedTime } from '@/lib/clock/clock';
import { nextTier } from '@/lib/leagues/math';
import { loadMembers } from '@/lib/leagues/queries';
import { rankSeason, runLeagueStep, scoreMembers } from '@/lib/leagues/service/seasons';
import { credit, debit } from '@/lib/ledger/ledger';
import { createMarket } from '@/lib/markets/service/create-market';
import { setLimiter } from '@/lib/operations/rate-limit';
import { refreshAllStandings } from '@/lib/standings/refresh';
import { seedUser } from '@/test/factories';
import { call, pinnedLimiter, tokenFor } from '@/test/http';

const DAY = 86_400_000;
/** Monday 2027-03-01 00:10 UTC: ISO week 2027-W09. */
const MONDAY = Date.UTC(2027, 2, 1, 0, 10);
const at = (day: number, minutes = 0) => new Date(MONDAY + day * DAY + minutes * 60_000);

/** Daily result of each player, worst to best: the same every day, so the ranking is known. */
const DAILY = [-40, -10, 0, 10, 30, 50];
let players: TUserRow[];
let marketId: string;

const close = async (day: number) => {
  setFixedTime(at(day));
  await refreshAllStandings();
  return runLeagueStep(at(day));
};

/** A day of trading: results moved through the ledger as trading would (not as deposits). */
const tradeDay = async (day: number, trades: boolean) => {
  setFixedTime(at(day, 30));
  for (const [i, p] of players.entries()) {
    if (trades) {
      for (let k = 0; k < 3; k++) {
        const res = await call(buyRoute, `/api/markets/predictions/${marketId}/buy`, { method: 'POST', token: await tokenFor(p), params: { id: marketId }, body: { outcome: 'YES', amount: 10 } });
        expect(res.status).toBe(200);
      }
    }
    const amount = DAILY[i]!;
    if (amount > 0) await withTransaction((tx) => credit(tx, { userId: p.id, amount, type: 'pred_payout', description: 'League test result' }));
    if (amount < 0) await withTransaction((tx) => debit(tx, { userId: p.id, amount: -amount, type: 'fee', description: 'League test result' }));
  }
};

beforeAll(async () => {
  setFixedTime(at(-1));
  players = [];
  for (let i = 0; i < DAILY.length; i++) players.push(await seedUser({ username: `league_p${i}`, balance: '1000' }));
  marketId = (await createMarket({ caller: null, text: 'Will the league test finish green?', resolutionDate: at(60), liquidity: 100000 })).id;
});
beforeEach(() => setLimiter(pinnedLimiter()));
afterAll(() => setFixedTime(undefined));

describe('a season under the test clock', () => {
  it('before the first close there is no season: the overview says so and the division is 404', async () => {
    const overview = await call(overviewRoute, '/api/leagues');
    expect(overview.status).toBe(200);
    expect(overview.body.season).toBeNull();
    expect(overview.body.rules.formula).toContain('Volatility');
    const division = await call(divisionRoute, '/api/leagues/division');
    expect([division.status, division.body.error.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('seats players by size on the first close, scores a week of closes, promotes the best and relegates the worst', async () => {
    const first = await close(0);
    expect(first).toMatchObject({ season: '2027-W09', seasonsClosed: 0, seated: DAILY.length });
    expect(first.snapshots).toBeGreaterThanOrEqual(DAILY.length);
    // Equity 1000 against a starting balance of 1000: silver, one division.
    const db = await getDb();
    const seats = await db.select().from(leagueMembers).where(eq(leagueMembers.seasonId, '2027-W09'));
    expect(seats.map((s) => [s.tier, s.division])).toEqual(DAILY.map(() => [1, 1]));
    // Closing again the same day changes nothing.
    expect(await close(0)).toMatchObject({ snapshots: 0, seasonsClosed: 0, seated: 0 });

    for (let d = 0; d < 7; d++) {
      await tradeDay(d, d === 0);
      const step = await close(d + 1);
      expect(step.snapshots).toBeGreaterThanOrEqual(DAILY.length);
      if (d < 6) {
        expect(step.seasonsClosed).toBe(0);
        // Live table mid-season: ranked by score, the best on top once qualified (3 daily returns).
        const live = await call(divisionRoute, '/api/leagues/division?tier=1', { token: await tokenFor(players[5]!) });
        expect(live.status).toBe(200);
        expect(live.body.season).toMatchObject({ id: '2027-W09', status: 'open' });
        expect(live.body.me.user.id).toBe(players[5]!.id);
        if (d >= 2) {
          expect(live.body.entries.map((e: { user: { id: string } }) => e.user.id)).toEqual([...players].reverse().map((p) => p.id));
          expect(live.body.entries[0].zone).toBe('promotion');
          expect(live.body.entries[5].zone).toBe('relegation');
        } else {
          expect(live.body.entries.every((e: { qualified: boolean; rank: number | null }) => !e.qualified && e.rank === null)).toBe(true);
        }
      } else {
        expect(step).toMatchObject({ seasonsClosed: 1, season: '2027-W10', seated: DAILY.length });
      }
    }

    const [season] = await db.select().from(leagueSeasons).where(eq(leagueSeasons.id, '2027-W09'));
    expect(season!.status).toBe('closed');
    const results = await db.select().from(leagueMembers).where(eq(leagueMembers.seasonId, '2027-W09'));
    const byUser = new Map(results.map((r) => [r.userId, r]));
    expect(players.map((p) => byUser.get(p.id)!.rank)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(players.map((p) => byUser.get(p.id)!.outcome)).toEqual(['relegated', 'stayed', 'stayed', 'stayed', 'stayed', 'promoted']);
    expect(players.every((p) => byUser.get(p.id)!.qualified && byUser.get(p.id)!.trades === 3)).toBe(true);
    // The best player's season return: +50 a day on a growing base, 7 days.
    expect(Number(byUser.get(players[5]!.id)!.seasonReturn)).toBeGreaterThan(0.3);
    expect(Number(byUser.get(players[0]!.id)!.score)).toBeLessThan(0);

    const next = await db.select().from(leagueMembers).where(eq(leagueMembers.seasonId, '2027-W10'));
    const tierOf = new Map(next.map((r) => [r.userId, r.tier]));
    expect(players.map((p) => tierOf.get(p.id))).toEqual([0, 1, 1, 1, 1, 2]);
  });

  it('the closed division answers final ranks and outcomes; the history shows each season', async () => {
    const res = await call(divisionRoute, '/api/leagues/division?season=2027-W09&tier=1&division=1');
    expect(res.status).toBe(200);
    expect(res.body.season).toMatchObject({ id: '2027-W09', status: 'closed', members: DAILY.length });
    expect(res.body.placement).toEqual({ tier: 1, tierName: 'silver', division: 1 });
    expect(res.body.entries.map((e: { rank: number }) => e.rank)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(res.body.entries[0]).toMatchObject({ user: { id: players[5]!.id }, outcome: 'promoted', zone: 'promotion', qualified: true, trades: 3, days: 7 });
    expect(res.body.entries[5]).toMatchObject({ user: { id: players[0]!.id }, outcome: 'relegated', zone: 'relegation' });

    const history = await call(historyRoute, `/api/users/${players[5]!.id}/leagues`, { params: { userId: players[5]!.id } });
    expect(history.status).toBe(200);
    expect(history.body.history).toMatchObject([
      { seasonId: '2027-W10', status: 'open', tier: 2, tierName: 'gold', rank: null, outcome: null },
      { seasonId: '2027-W09', status: 'closed', tier: 1, tierName: 'silver', division: 1, rank: 1, outcome: 'promoted', qualified: true },
    ]);
    const missing = await call(historyRoute, '/api/users/nobody/leagues', { params: { userId: 'nobody' } });
    expect([missing.status, missing.body.error.code]).toEqual([404, 'USER_NOT_FOUND']);
  });

  it("the overview shows the current season, its tiers and the caller's place", async () => {
    const res = await call(overviewRoute, '/api/leagues', { token: await tokenFor(players[0]!) });
    expect(res.status).toBe(200);
    expect(res.body.season).toMatchObject({ id: '2027-W10', status: 'open', members: DAILY.length });
    expect(res.body.me).toEqual({ tier: 0, tierName: 'bronze', division: 1 });
    expect(res.body.tiers.map((t: { members: number }) => t.members)).toEqual([1, 4, 1, 0, 0]);
    expect(res.body.seasons.map((s: { id: string }) => s.id)).toEqual(['2027-W10', '2027-W09']);
    expect(Date.parse(res.body.now)).toBe(at(7).getTime());
    expect(res.body.rules).toMatchObject({ minTrades: 3, minDays: 3, divisionSize: 30 });
    // The caller's division by default: bronze for the relegated player.
    const mine = await call(divisionRoute, '/api/leagues/division', { token: await tokenFor(players[0]!) });
    expect(mine.body.placement).toMatchObject({ tier: 0, division: 1 });
    expect(mine.body.entries.map((e: { user: { id: string } }) => e.user.id)).toEqual([players[0]!.id]);
  });

  it('a player who signs up mid-season is seated at the next tick, not at midnight', async () => {
    setFixedTime(at(7, 20));
    const late = await seedUser({ username: 'league_late', balance: '1000' });
    await refreshAllStandings();
    const step = await runLeagueStep(at(7, 20));
    expect(step).toMatchObject({ snapshots: 1, seated: 1, seasonsClosed: 0 });
    const [seat] = await (await getDb()).select().from(leagueMembers).where(and(eq(leagueMembers.seasonId, '2027-W10'), eq(leagueMembers.userId, late.id)));
    expect(seat).toMatchObject({ tier: 1, division: 1 });
    // Nobody else is looked at between daily closes.
    expect(await runLeagueStep(at(7, 21))).toMatchObject({ snapshots: 0, seated: 0 });
  });

  it('season after season: a quiet week ranks nobody, moves nobody, and seats the same tiers again', async () => {
    for (let d = 8; d <= 14; d++) await close(d);
    const db = await getDb();
    const w10 = await db.select().from(leagueMembers).where(eq(leagueMembers.seasonId, '2027-W10'));
    expect(w10.every((m) => m.outcome === 'stayed' && m.rank === null && m.qualified === false)).toBe(true);
    const w11 = await db.select().from(leagueMembers).where(eq(leagueMembers.seasonId, '2027-W11'));
    const tierOf = new Map(w11.map((r) => [r.userId, r.tier]));
    expect(players.map((p) => tierOf.get(p.id))).toEqual([0, 1, 1, 1, 1, 2]);
    const snaps = await db.select().from(equitySnapshots).where(and(eq(equitySnapshots.userId, players[5]!.id)));
    expect(snaps.length).toBeGreaterThanOrEqual(15);
  });

  it('refuses bad parameters: 400 INVALID_PARAMETER, unknown season or division 404', async () => {
    for (const q of ['season=2027-9', 'tier=7', 'tier=-1', 'tier=x', 'division=-2', 'division=x']) {
      const res = await call(divisionRoute, `/api/leagues/division?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error.code).toBe('INVALID_PARAMETER');
    }
    for (const q of ['season=2020-W01', 'season=2027-W09&tier=1&division=9']) {
      const res = await call(divisionRoute, `/api/leagues/division?${q}`);
      expect([res.status, res.body.error.code], q).toEqual([404, 'NOT_FOUND']);
    }
  });
  it('with a small batch a season closes division by division over several ticks, open until the last, with the results of a one-batch close', async () => {
    const db = await getDb();
    const [late] = await db.select().from(users).where(eq(users.username, 'league_late'));
    // 2027-W11: bronze (players[0]), silver (players[1..4] and the late player), gold (players[5]).
    // Everyone trades on its first day (the late player too, with no result), then a week of results.
    for (let d = 14; d < 21; d++) {
      await tradeDay(d, d === 14);
      if (d === 14) {
        setFixedTime(at(d, 40));
        for (let k = 0; k < 3; k++) {
          const res = await call(buyRoute, `/api/markets/predictions/${marketId}/buy`, { method: 'POST', token: await tokenFor(late!), params: { id: marketId }, body: { outcome: 'YES', amount: 10 } });
          expect(res.status).toBe(200);
        }
      }
      if (d < 20) expect(await close(d + 1)).toMatchObject({ seasonsClosed: 0 });
    }
    const w11 = () => db.select().from(leagueMembers).where(eq(leagueMembers.seasonId, '2027-W11'));
    const divisionOf = (m: { tier: number; division: number | null }) => `${m.tier}:${m.division ?? 1}`;
    const sizes = new Map<string, number>();
    for (const m of await w11()) sizes.set(divisionOf(m), (sizes.get(divisionOf(m)) ?? 0) + 1);
    expect([...sizes].sort()).toEqual([
      ['0:1', 1],
      ['1:1', 5],
      ['2:1', 1],
    ]);

    // A batch of 2 members: bronze alone (silver would overflow it), silver alone (a whole division
    // even when larger), then gold, which closes the season and seats the next.
    const steps = [];
    const rankedAfter: string[][] = [];
    for (let i = 0; i < 10; i++) {
      setFixedTime(at(21, i));
      if (i === 0) await refreshAllStandings();
      const step = await runLeagueStep(at(21, i), { seasonBatch: 2 });
      steps.push(step);
      const members = await w11();
      const ranked = [...sizes.keys()].sort().filter((k) => members.some((m) => divisionOf(m) === k && m.outcome !== null));
      // Whole divisions only: every member of a division is ranked, or none.
      for (const k of ranked) expect(members.filter((m) => divisionOf(m) === k).every((m) => m.outcome !== null), k).toBe(true);
      rankedAfter.push(ranked);
      const [season] = await db.select().from(leagueSeasons).where(eq(leagueSeasons.id, '2027-W11'));
      if (step.seasonsClosed) {
        expect(season!.status).toBe('closed');
        break;
      }
      // Still open: it reads as a live season (no stored results shown), and nobody is seated in the next.
      expect(season!.status).toBe('open');
      expect(step).toMatchObject({ seasonsClosed: 0, seated: 0, season: '2027-W12' });
      const history = await call(historyRoute, `/api/users/${players[0]!.id}/leagues`, { params: { userId: players[0]!.id } });
      expect(history.body.history[0]).toMatchObject({ seasonId: '2027-W11', status: 'open', tier: 0, rank: null, outcome: null });
      const live = await call(divisionRoute, '/api/leagues/division?season=2027-W11&tier=0&division=1');
      expect(live.body.season).toMatchObject({ id: '2027-W11', status: 'open' });
      expect(live.body.entries.map((e: { outcome: string | null }) => e.outcome)).toEqual([null]);
    }
    expect(rankedAfter).toEqual([['0:1'], ['0:1', '1:1'], ['0:1', '1:1', '2:1']]);
    expect(steps.map((s) => s.seasonsClosed)).toEqual([0, 0, 1]);
    // The members ranked count in the tick's cost: silver's five, then gold's one and the seating
    // (each account staged, seated and its plan row cleaned: three times).
    expect(steps[1]!.cost).toBe(5);
    expect(steps[2]!.seated).toBeGreaterThan(0);
    expect(steps[2]!.cost).toBe(1 + 3 * steps[2]!.seated);

    // The same ranks and outcomes as one batch over the whole season gives.
    const [season] = await db.select().from(leagueSeasons).where(eq(leagueSeasons.id, '2027-W11'));
    const members = await loadMembers(db, '2027-W11');
    const division = new Map(members.map((m) => [m.user_id, m.division ?? 1]));
    const expected = rankSeason(await scoreMembers(db, season!, members), (id) => division.get(id) ?? 1);
    const stored = new Map((await w11()).map((m) => [m.userId, m]));
    expect(expected.map((r) => [r.member.userId, stored.get(r.member.userId)!.rank, stored.get(r.member.userId)!.outcome])).toEqual(
      expected.map((r) => [r.member.userId, r.rank, r.outcome]),
    );
    expect(players.map((p) => stored.get(p.id)!.outcome)).toEqual(['stayed', 'relegated', 'stayed', 'stayed', 'promoted', 'stayed']);

    // The next season seats everyone by those outcomes.
    const w12 = await db.select().from(leagueMembers).where(eq(leagueMembers.seasonId, '2027-W12'));
    expect(w12.length).toBe(steps[2]!.seated);
    const tierOf = new Map(w12.map((r) => [r.userId, r.tier]));
    for (const m of stored.values()) expect(tierOf.get(m.userId), m.userId).toBe(nextTier(m.tier, m.outcome!));
    expect(players.map((p) => tierOf.get(p.id))).toEqual([0, 0, 1, 1, 2, 2]);
    const history = await call(historyRoute, `/api/users/${players[4]!.id}/leagues`, { params: { userId: players[4]!.id } });
    expect(history.body.history[1]).toMatchObject({ seasonId: '2027-W11', status: 'closed', tier: 1, rank: 1, outcome: 'promoted' });
  });
});
