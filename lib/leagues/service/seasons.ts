/**
 * The league's part of the tick, in order: record the daily close (once per game day), close
 * every season whose end has passed (scores, ranks, promotion and relegation, in one transaction
 * under the season's row lock, so two ticks never close it twice), then seat the players who are
 * not yet in the current season: returning players in the tier their last outcome gives them,
 * newcomers placed by size. Runs season after season under the test clock.
 */
import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import { getDb, rowsOf, textArray, type DbOrTx } from '@/db/client';
import { equitySnapshots, leagueMembers, leagueSeasons, standings } from '@/db/schema';
import { env } from '@/lib/env';
import { awardNpcActivity } from '@/lib/points/service/npc-activity';
import { closedDayOf, dailyReturns, divisionsOf, nextTier, placementTier, qualifies, rankDivision, riskAdjusted, seasonOf, spreadTier } from '../math';
import { hasDailyClose, insertDailySnapshots, loadMembers, loadSeasonSnapshots, loadSeasonTradeCounts } from '../queries';

const DAY_MS = 86_400_000;
/** How far back an account first ranked counts as a newcomer between daily closes. */
const NEWCOMER_WINDOW_MS = 15 * 60_000;
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/** The season's daily closes: from the eve of its first day to its last day. */
export function seasonDays(s: { startsAt: Date; endsAt: Date }) {
  return { from: dayOf(new Date(s.startsAt.getTime() - DAY_MS)), to: dayOf(new Date(s.endsAt.getTime() - DAY_MS)) };
}

/** Live or final figures of members: their returns, score and trades in the season. */
export async function scoreMembers(db: DbOrTx, season: { startsAt: Date; endsAt: Date }, members: readonly { user_id: string; tier: number }[]) {
  const ids = members.map((m) => m.user_id);
  const { from, to } = seasonDays(season);
  const [snaps, counts] = await Promise.all([loadSeasonSnapshots(db, ids, from, to), loadSeasonTradeCounts(db, ids, season.startsAt, season.endsAt)]);
  return members.map((m) => {
    const r = riskAdjusted(dailyReturns(snaps.get(m.user_id) ?? []));
    const tradesMade = counts.get(m.user_id) ?? 0;
    return { userId: m.user_id, tier: m.tier, ...r, trades: tradesMade, qualified: qualifies(tradesMade, r.days) };
  });
}

/** Groups members by (tier, division) and ranks each division. */
export function rankSeason<T extends { userId: string; tier: number; score: number; qualified: boolean }>(scored: readonly T[], divisionOf: (userId: string) => number) {
  const groups = new Map<string, T[]>();
  for (const s of scored) {
    const key = `${s.tier}:${divisionOf(s.userId)}`;
    const group = groups.get(key);
    if (group) group.push(s);
    else groups.set(key, [s]);
  }
  return [...groups.values()].flatMap((g) => rankDivision(g));
}

const closeSeason = async (seasonId: string, at: Date) => {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [season] = await tx.select().from(leagueSeasons).where(and(eq(leagueSeasons.id, seasonId), eq(leagueSeasons.status, 'open'))).for('update');
    if (!season) return false;
    const members = await loadMembers(tx, seasonId);
    const division = new Map(members.map((m) => [m.user_id, m.division]));
    const scored = await scoreMembers(tx, season, members);
    const ranked = rankSeason(scored, (id) => division.get(id) ?? 1);
    if (ranked.length) {
      const values = ranked.map(
        (r) =>
          sql`(${r.member.userId}, ${r.rank}::int, ${String(r.member.score)}::numeric, ${String(r.member.seasonReturn)}::numeric, ${String(r.member.volatility)}::numeric, ${r.member.trades}::int, ${r.member.days}::int, ${r.member.qualified}::boolean, ${r.outcome})`,
      );
      await tx.execute(sql`
        update ${leagueMembers} m set rank = v.rank, score = v.score, season_return = v.ret, volatility = v.vol, trades = v.trades, days = v.days, qualified = v.q, outcome = v.outcome
        from (values ${sql.join(values, sql`, `)}) as v(user_id, rank, score, ret, vol, trades, days, q, outcome)
        where m.season_id = ${seasonId} and m.user_id = v.user_id`);
    }
    await tx.update(leagueSeasons).set({ status: 'closed', closedAt: at }).where(eq(leagueSeasons.id, seasonId));
    return true;
  });
};

type TCandidate = { user_id: string; kind: 'user' | 'agent' | 'actor'; equity: string; last_tier: number | null; last_outcome: 'promoted' | 'relegated' | 'stayed' | null };

/**
 * Seats accounts with today's close and no seat in the season: players, agents and NPC actors (an
 * NPC's first tier is spread by its id, so every tier has a field; later, results move it).
 */
const seatPlayers = async (seasonId: string, day: string, at: Date, onlyIds?: readonly string[]) => {
  const db = await getDb();
  return db.transaction(async (tx) => {
    // One seating at a time per season: the season's row lock.
    await tx.select({ id: leagueSeasons.id }).from(leagueSeasons).where(eq(leagueSeasons.id, seasonId)).for('update');
    const candidates = rowsOf<TCandidate>(
      await tx.execute(sql`
        select s.user_id, s.kind, es.equity::text as equity, last.tier as last_tier, last.outcome as last_outcome
        from ${standings} s
        join ${equitySnapshots} es on es.user_id = s.user_id and es.day = ${day}::date
        left join lateral (
          select m.tier, m.outcome from ${leagueMembers} m where m.user_id = s.user_id and m.season_id < ${seasonId}
          order by m.season_id desc limit 1
        ) last on true
        where s.listed ${onlyIds ? sql`and s.user_id = any(${textArray(onlyIds)})` : sql``}
          and not exists (select 1 from ${leagueMembers} x where x.season_id = ${seasonId} and x.user_id = s.user_id)`),
    );
    if (candidates.length === 0) return 0;
    const start = env().startingBalance;
    // NPCs new to the leagues are dealt round the tiers, continuing from those already seated.
    const [dealt] = rowsOf<{ n: string }>(
      await tx.execute(sql`select count(*) as n from ${leagueMembers} m join ${standings} s on s.user_id = m.user_id where m.season_id = ${seasonId} and s.kind = 'actor'`),
    );
    let npc = Number(dealt?.n ?? 0);
    const seats = candidates
      .sort((a, b) => (a.user_id < b.user_id ? -1 : a.user_id > b.user_id ? 1 : 0))
      .map((c) => ({
        userId: c.user_id,
        startEquity: c.equity,
        tier:
          c.last_tier !== null ? nextTier(c.last_tier, c.last_outcome ?? 'stayed') : c.kind === 'actor' ? spreadTier(npc++) : placementTier(c.equity, start),
      }));
    // Divisions: a tier seated for the first time this season is split by size; later arrivals
    // join the division whose players are closest in size (the first whose largest is as large).
    const existing = rowsOf<{ tier: number; division: number; max_equity: string }>(
      await tx.execute(sql`
        select tier, division, max(start_equity)::text as max_equity from ${leagueMembers}
        where season_id = ${seasonId} group by tier, division order by tier, division`),
    );
    const byTier = new Map<number, typeof seats>();
    for (const s of seats) {
      const group = byTier.get(s.tier);
      if (group) group.push(s);
      else byTier.set(s.tier, [s]);
    }
    const rows: (typeof leagueMembers.$inferInsert)[] = [];
    for (const [tier, group] of byTier) {
      const divisions = existing.filter((e) => e.tier === tier);
      if (divisions.length === 0) {
        const { divisionOf } = divisionsOf(group);
        for (const s of group) rows.push({ seasonId, userId: s.userId, tier, startEquity: s.startEquity, division: divisionOf.get(s.userId)!, joinedAt: at });
      } else {
        for (const s of group) {
          const fit = divisions.find((d) => Number(d.max_equity) >= Number(s.startEquity)) ?? divisions[divisions.length - 1]!;
          rows.push({ seasonId, userId: s.userId, tier, startEquity: s.startEquity, division: fit.division, joinedAt: at });
        }
      }
    }
    for (let i = 0; i < rows.length; i += 1000) await tx.insert(leagueMembers).values(rows.slice(i, i + 1000)).onConflictDoNothing();
    return rows.length;
  });
};

/** The tick's league step. */
export async function runLeagueStep(at: Date) {
  const db = await getDb();
  const day = closedDayOf(at);
  // The full close once a day; between closes only new players get their first (and a seat below).
  const isNewDay = !(await hasDailyClose(db, day));
  const snapshots = isNewDay ? (await insertDailySnapshots(db, day, at)).length : 0;
  // NPCs earn their points for the closed day's activity (once per day: the award key).
  if (isNewDay) await awardNpcActivity(day);
  const newcomers = isNewDay ? [] : await insertDailySnapshots(db, day, at, { newPlayersSince: new Date(at.getTime() - NEWCOMER_WINDOW_MS) });
  const due = await db
    .select({ id: leagueSeasons.id })
    .from(leagueSeasons)
    .where(and(eq(leagueSeasons.status, 'open'), sql`${leagueSeasons.endsAt} <= ${at.toISOString()}::timestamptz`))
    .orderBy(leagueSeasons.id);
  let closed = 0;
  for (const s of due) if (await closeSeason(s.id, at)) closed++;
  const current = seasonOf(at);
  await db.insert(leagueSeasons).values({ id: current.id, startsAt: current.startsAt, endsAt: current.endsAt, status: 'open' }).onConflictDoNothing();
  const seated =
    snapshots > 0 || closed > 0 ? await seatPlayers(current.id, day, at) : newcomers.length > 0 ? await seatPlayers(current.id, day, at, newcomers) : 0;
  return { snapshots: snapshots + newcomers.length, seasonsClosed: closed, seated, season: current.id };
}
