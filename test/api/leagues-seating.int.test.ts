/**
 * A new season's whole field is seated in set-based batches over ticks (lib/leagues/service/seasons.ts
 * seatNewSeasonStep: a plan of tiers in user id order, then seats in (tier, size) order, then the
 * plan cleaned). Here it is held, seat for seat, to the pure rules it stands for
 * (lib/leagues/math.ts: nextTier for returning accounts, spreadTier for NPCs new to the leagues in
 * user id order, placementTier for newcomers, divisionsOf for each tier's divisions), on a mixed
 * field: players, agents and NPCs, returning ones with every outcome, sizes on and around every
 * placement multiple, ties broken by ids that sort differently under a locale's collation than by
 * code unit (the statement orders them COLLATE "C"; on a server whose default collation is already
 * C, as the test servers here are, that part holds either way), unlisted accounts and accounts
 * without the day's close left out, and tiers large
 * enough to split into several divisions. Later arrivals still join existing divisions one by one.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb, rowsOf } from '@/db/client';
import { env } from '@/lib/env';
import { dec } from '@/lib/money/decimal';
import { divisionsOf, nextTier, placementTier, spreadTier, type TOutcome } from '@/lib/leagues/math';
import { seatNewSeasonStep, seatPlayers } from '@/lib/leagues/service/seasons';

const DAY = '2030-01-06';
const AT = new Date('2030-01-07T00:10:00Z');
const PREVIOUS = '2030-W01';
const SEASON = '2030-W02';

type TAccount = {
  id: string;
  kind: 'user' | 'agent' | 'actor';
  equity: string;
  listed: boolean;
  closed: boolean;
  last?: { tier: number; outcome: TOutcome | null };
};

/** A deterministic generator (mulberry32), so the field is the same on every run. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const q = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await (await getDb()).execute(query));

const field = (): TAccount[] => {
  const rnd = random(20300106);
  const start = Number(env().startingBalance);
  // Sizes on, just under and just over each multiple of the starting balance, and a few shared by many.
  const sizes = [0, 0.5, 1, 2, 5, 20, 100].flatMap((m) => [m * start, m * start - 0.00000001, m * start + 0.00000001]).filter((x) => x >= 0);
  const out: TAccount[] = [];
  // Ids that a locale's collation orders differently from code units (case, '-' and '_').
  const tricky = ['seat-Ab', 'seat-aB', 'seat-a-b', 'seat-ab', 'seat-a_b', 'seat-B', 'seat-b', 'seat-_'];
  for (const [i, id] of tricky.entries()) out.push({ id, kind: i % 3 === 0 ? 'actor' : 'user', equity: String(start), listed: true, closed: true });
  for (let i = 0; i < 420; i++) {
    const r = rnd();
    const kind = r < 0.15 ? 'actor' : r < 0.3 ? 'agent' : 'user';
    const equity = (rnd() < 0.5 ? sizes[Math.floor(rnd() * sizes.length)]! : Math.floor(rnd() * 30 * start * 1e8) / 1e8).toFixed(8);
    const returning = rnd() < 0.4;
    const outcomes: (TOutcome | null)[] = ['promoted', 'relegated', 'stayed', null];
    out.push({
      id: `seat-${i.toString(36).padStart(3, '0')}-${Math.floor(rnd() * 1e6).toString(36)}`,
      kind,
      equity,
      listed: rnd() > 0.05,
      closed: rnd() > 0.05,
      ...(returning ? { last: { tier: Math.floor(rnd() * 5), outcome: outcomes[Math.floor(rnd() * 4)]! } } : {}),
    });
  }
  return out;
};

/** The seats the pure rules give: what the one statement must write. */
const expectedSeats = (accounts: readonly TAccount[]) => {
  const start = env().startingBalance;
  const candidates = accounts.filter((a) => a.listed && a.closed).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  let npc = 0;
  const seats = candidates.map((c) => ({
    userId: c.id,
    startEquity: c.equity,
    tier: c.last ? nextTier(c.last.tier, c.last.outcome ?? 'stayed') : c.kind === 'actor' ? spreadTier(npc++) : placementTier(c.equity, start),
  }));
  const out = new Map<string, { tier: number; division: number }>();
  for (let tier = 0; tier < 5; tier++) {
    const group = seats.filter((s) => s.tier === tier);
    const { divisionOf } = divisionsOf(group);
    for (const s of group) out.set(s.userId, { tier, division: divisionOf.get(s.userId)! });
  }
  return out;
};

describe("a new season's seating in one statement", () => {
  const accounts = field();

  beforeAll(async () => {
    const db = await getDb();
    const now = AT.toISOString();
    await db.execute(sql`insert into league_seasons (id, starts_at, ends_at, status) values
      (${PREVIOUS}, '2029-12-31T00:00:00Z', '2030-01-07T00:00:00Z', 'closed'), (${SEASON}, '2030-01-07T00:00:00Z', '2030-01-14T00:00:00Z', 'open')`);
    for (const [i, a] of accounts.entries()) {
      await db.execute(sql`insert into users (id, username, referral_code, is_actor, is_agent, created_at, updated_at)
        values (${a.id}, ${`seat_${i}`}, ${`ref-${a.id}`}, ${a.kind === 'actor'}, ${a.kind === 'agent'}, ${now}::timestamptz, ${now}::timestamptz)`);
      await db.execute(sql`insert into standings (user_id, kind, listed, points, earned_points, referral_points, lifetime_pnl, refreshed_at)
        values (${a.id}, ${a.kind}, ${a.listed}, 0, 0, 0, 0, ${now}::timestamptz)
        on conflict (user_id) do update set kind = excluded.kind, listed = excluded.listed`);
      if (a.closed) {
        await db.execute(sql`insert into equity_snapshots (user_id, day, equity, flows, lifetime_pnl, created_at)
          values (${a.id}, ${DAY}::date, ${a.equity}::numeric, 0, 0, ${now}::timestamptz)`);
      }
      if (a.last) {
        await db.execute(sql`insert into league_members (season_id, user_id, tier, start_equity, joined_at, division, outcome)
          values (${PREVIOUS}, ${a.id}, ${a.last.tier}, 1000, ${now}::timestamptz, 1, ${a.last.outcome})`);
      }
    }
  });

  it('writes exactly the seats nextTier, spreadTier, placementTier and divisionsOf give, a batch a tick', async () => {
    const expected = expectedSeats(accounts);
    // 37 accounts a tick: stage, seat and clean each take about n / 37 ticks, phases handing on
    // within a tick when one ends with budget to spare.
    let seated = 0;
    let ticks = 0;
    for (let done = false; !done; ticks++) {
      const r = await seatNewSeasonStep(SEASON, DAY, AT, 37);
      expect(r.cost).toBeLessThanOrEqual(37);
      seated += r.seated;
      done = r.done;
      expect(ticks).toBeLessThan(100);
    }
    expect(seated).toBe(expected.size);
    expect(ticks).toBeGreaterThanOrEqual(Math.floor((3 * expected.size) / 37));
    expect((await q<{ n: number }>(sql`select count(*)::int as n from league_seating_plan where season_id = ${SEASON}`))[0]!.n).toBe(0);
    const rows = await q<{ user_id: string; tier: number; division: number; start_equity: string }>(
      sql`select user_id, tier, division, start_equity::text from league_members where season_id = ${SEASON}`,
    );
    const got = new Map(rows.map((r) => [r.user_id, { tier: Number(r.tier), division: Number(r.division) }]));
    expect(Object.fromEntries(got)).toEqual(Object.fromEntries(expected));
    for (const r of rows) expect(dec(r.start_equity).eq(accounts.find((a) => a.id === r.user_id)!.equity), r.user_id).toBe(true);
    // The field is what the test means it to be: every tier seated, some tier split, NPCs dealt.
    const tiers = new Set([...expected.values()].map((s) => s.tier));
    expect(tiers.size).toBe(5);
    expect(Math.max(...[...expected.values()].map((s) => s.division))).toBeGreaterThan(1);
    // Done: another step writes nothing.
    expect(await seatNewSeasonStep(SEASON, DAY, AT, 37)).toEqual({ seated: 0, cost: 0, done: true });
  });

  it('seats a later arrival in the division closest in size, as before', async () => {
    const now = AT.toISOString();
    const id = 'seat-late-arrival';
    const db = await getDb();
    await db.execute(sql`insert into users (id, username, referral_code, created_at, updated_at) values (${id}, ${id}, ${`ref-${id}`}, ${now}::timestamptz, ${now}::timestamptz)`);
    await db.execute(sql`insert into standings (user_id, kind, listed, points, earned_points, referral_points, lifetime_pnl, refreshed_at) values (${id}, 'user', true, 0, 0, 0, 0, ${now}::timestamptz)
      on conflict (user_id) do update set kind = excluded.kind, listed = excluded.listed`);
    await db.execute(sql`insert into equity_snapshots (user_id, day, equity, flows, lifetime_pnl, created_at) values (${id}, ${DAY}::date, 1, 0, 0, ${now}::timestamptz)`);
    expect(await seatPlayers(SEASON, DAY, AT, [id])).toBe(1);
    const [row] = await q<{ tier: number; division: number }>(sql`select tier, division from league_members where season_id = ${SEASON} and user_id = ${id}`);
    // Equity 1 is bronze and smaller than anyone: the first bronze division.
    expect({ tier: Number(row!.tier), division: Number(row!.division) }).toEqual({ tier: 0, division: 1 });
  });
});
