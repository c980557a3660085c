/**
 * Something to compete on (issue 31): P&L and ROI boards by period beside points, NPCs and agents
 * marked on them; NPCs seated in every tier of the leagues, so a newcomer's division has a field;
 * NPC points that follow their activity instead of a fixed standing. Under the test clock.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GET as leaderboardRoute } from '@/app/api/leaderboard/route';
import { GET as divisionRoute } from '@/app/api/leagues/division/route';
import { getDb, withTransaction } from '@/db/client';
import { leagueMembers, users, type TUserRow } from '@/db/schema';
import { setFixedTime } from '@/lib/clock/clock';
import { readAccountNumbers } from '@/lib/equity/service';
import { runLeagueStep } from '@/lib/leagues/service/seasons';
import { credit, debit } from '@/lib/ledger/ledger';
import { buyShares } from '@/lib/markets/service/buy-shares';
import { createMarket } from '@/lib/markets/service/create-market';
import { setLimiter } from '@/lib/operations/rate-limit';
import { npcActivityPoints, NPC_TRADE_POINTS_MAX } from '@/lib/points/npc-activity';
import { refreshAllStandings } from '@/lib/standings/refresh';
import { seedUser } from '@/test/factories';
import { call, pinnedLimiter, tokenFor } from '@/test/http';

const DAY = 86_400_000;
/** Monday 2027-05-03 00:10 UTC (ISO week 2027-W18). */
const MONDAY = Date.UTC(2027, 4, 3, 0, 10);
const at = (day: number, minutes = 0) => new Date(MONDAY + day * DAY + minutes * 60_000);

let alice: TUserRow;
let bob: TUserRow;
let carol: TUserRow;
let npcs: TUserRow[];

/** A trading result booked as a product's cash flow (not a contribution). */
const result = async (user: TUserRow, amount: number) =>
  withTransaction((tx) =>
    amount > 0
      ? credit(tx, { userId: user.id, amount, type: 'pred_payout', description: 'Board test result' })
      : debit(tx, { userId: user.id, amount: -amount, type: 'fee', description: 'Board test result' }),
  );

const board = async (query: Record<string, string>, user?: TUserRow) => {
  const res = await call(leaderboardRoute, '/api/leaderboard', { query: { pageSize: '100', ...query }, token: user ? await tokenFor(user) : undefined });
  expect(res.status).toBe(200);
  return res.body as { metric: string; period: string; leaderboard: { user: { id: string }; kind: string; score: number; rank: number; lifetimePnL: number; pnl: Record<string, number>; roi: Record<string, number> }[]; me: { score: number } | null };
};
const ours = (b: Awaited<ReturnType<typeof board>>) => b.leaderboard.filter((e) => [alice, bob, carol, ...npcs].some((u) => u.id === e.user.id));

beforeAll(async () => {
  setFixedTime(at(-1));
  alice = await seedUser({ balance: '1000' });
  bob = await seedUser({ balance: '1000' });
  carol = await seedUser({ balance: '1000' });
  npcs = [];
  for (let i = 0; i < 6; i++) npcs.push(await seedUser({ isActor: true, balance: '10000' }));
});
beforeEach(() => setLimiter(pinnedLimiter()));
afterAll(() => setFixedTime(undefined));

describe('P&L and ROI boards', () => {
  it('rank by the one P&L and by its return, mark NPCs, and keep points as the default board', async () => {
    setFixedTime(at(0));
    await runLeagueStep(at(0)); // the first close: everyone's P&L 0
    setFixedTime(at(0, 30));
    await result(alice, 100);
    await result(bob, -50);
    await result(carol, 10);
    await result(npcs[0]!, 500);
    await refreshAllStandings();

    const pnl = ours(await board({ metric: 'pnl', period: 'all' }));
    expect(pnl.slice(0, 3).map((e) => e.user.id)).toEqual([npcs[0]!.id, alice.id, carol.id]);
    expect(pnl[pnl.length - 1]!.user.id).toBe(bob.id);
    expect(pnl[0]).toMatchObject({ kind: 'actor', score: 500 });
    expect(pnl.find((e) => e.user.id === alice.id)).toMatchObject({ kind: 'user', score: 100, lifetimePnL: 100 });
    // The board's score is lib/equity's P&L.
    for (const e of pnl) expect(e.pnl.all).toBe(Number((await readAccountNumbers(e.user.id))!.pnl));

    // Return on what was at stake: alice's 100 on 1,000 beats the NPC's 500 on 10,000.
    const roi = ours(await board({ metric: 'roi', period: 'all' }));
    expect(roi.slice(0, 3).map((e) => [e.user.id, e.score])).toEqual([
      [alice.id, 0.1],
      [npcs[0]!.id, 0.05],
      [carol.id, 0.01],
    ]);
    // Points stay the default board.
    expect((await board({})).metric).toBe('points');
  });

  it('counts a period from the daily close before it', async () => {
    setFixedTime(at(1));
    await runLeagueStep(at(1)); // the close of day 0: alice at +100
    setFixedTime(at(1, 30));
    await result(alice, 20);
    await result(carol, -30);
    await refreshAllStandings();
    const day = ours(await board({ metric: 'pnl', period: 'day' }, alice));
    expect(day.find((e) => e.user.id === alice.id)!.score).toBe(20);
    expect(day.find((e) => e.user.id === carol.id)!.score).toBe(-30);
    expect(day.find((e) => e.user.id === npcs[0]!.id)!.score).toBe(0);
    const week = ours(await board({ metric: 'pnl', period: 'week' }));
    // The week's start is before every account's first close: the whole P&L.
    expect(week.find((e) => e.user.id === alice.id)!.score).toBe(120);
    const season = await board({ metric: 'pnl', period: 'season' }, alice);
    expect(season.me!.score).toBe(120);
    // ROI of the day: 20 on what alice had at its start (1,100).
    const roiDay = ours(await board({ metric: 'roi', period: 'day' }));
    expect(roiDay.find((e) => e.user.id === alice.id)!.score).toBeCloseTo(20 / 1100, 8);
  });
});

describe('leagues with a field', () => {
  it('deals NPCs round every tier, so a newcomer’s division has NPCs in it, marked', async () => {
    const db = await getDb();
    const seats = await db.select().from(leagueMembers).where(eq(leagueMembers.seasonId, '2027-W18'));
    const npcTiers = new Set(seats.filter((s) => npcs.some((n) => n.id === s.userId)).map((s) => s.tier));
    expect(npcTiers).toEqual(new Set([0, 1, 2, 3, 4]));

    // A newcomer between closes: seated at once, by size (silver), beside an NPC.
    setFixedTime(at(1, 60));
    const dora = await seedUser({ balance: '1000' });
    await refreshAllStandings();
    await runLeagueStep(at(1, 61));
    const res = await call(divisionRoute, '/api/leagues/division', { token: await tokenFor(dora) });
    expect(res.status).toBe(200);
    const entries = res.body.entries as { user: { id: string }; kind: string }[];
    expect(entries.some((e) => e.user.id === dora.id && e.kind === 'user')).toBe(true);
    expect(entries.filter((e) => e.kind === 'actor').length).toBeGreaterThan(0);
    expect(entries.length).toBeGreaterThan(1);
  });
});

describe('NPC points', () => {
  it('follow activity: the rule, and a day of trades paid once at the close', async () => {
    expect(npcActivityPoints({ trades: 0, likes: 0 })).toBe(0);
    expect(npcActivityPoints({ trades: 3, likes: 12 })).toBe(5);
    expect(npcActivityPoints({ trades: 500, likes: 0 })).toBe(NPC_TRADE_POINTS_MAX);

    const npc = npcs[1]!;
    const db = await getDb();
    const pointsOf = async () => (await db.select({ p: users.reputationPoints }).from(users).where(eq(users.id, npc.id)))[0]!.p;
    setFixedTime(at(2, 30));
    const marketId = (await createMarket({ caller: null, text: 'Will the NPC points test trade?', resolutionDate: at(30), liquidity: 5000 })).id;
    const caller = { userId: npc.id, username: npc.username, isAdmin: false, isModerator: false, isAgent: false, referredById: null };
    for (let i = 0; i < 4; i++) await buyShares({ caller, marketId, outcome: i % 2 ? 'NO' : 'YES', amount: 10 });
    const before = await pointsOf();
    setFixedTime(at(3));
    await runLeagueStep(at(3)); // the close of day 2
    expect(await pointsOf()).toBe(before + 4);
    // Another look at the same close pays nothing more; an idle NPC earns nothing.
    await runLeagueStep(at(3, 5));
    expect(await pointsOf()).toBe(before + 4);
    const idle = npcs[2]!;
    const [row] = await db.select({ p: users.reputationPoints }).from(users).where(eq(users.id, idle.id));
    expect(row!.p).toBe(0);
  });
});
