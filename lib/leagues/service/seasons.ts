/**
 * The league's part of the tick, in order: record the daily close (once per game day, in batches
 * over the day's first ticks), close every season whose end has passed (in batches of whole
 * divisions over the next ticks, SEASON_CLOSE_BATCH members a tick: each division scored, ranked,
 * promoted and relegated under the season's row lock, so two ticks never rank a division twice;
 * the season is marked closed with its last division), then, once no ended season is left open,
 * seat the players who are not yet in the current season: returning players in the tier their
 * last outcome gives them, newcomers placed by size. Runs season after season under the test clock.
 */
import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import { getDb, rowsOf, textArray, type DbOrTx } from '@/db/client';
import { equitySnapshots, leagueCloseProgress, leagueMembers, leagueSeasons, leagueSeating, leagueSeatingPlan, standings } from '@/db/schema';
import { env } from '@/lib/env';
import { awardNpcActivity } from '@/lib/points/service/npc-activity';
import {
  closedDayOf,
  dailyReturns,
  DIVISION_SIZE,
  divisionsOf,
  nextTier,
  PLACEMENT_MULTIPLES,
  placementTier,
  qualifies,
  rankDivision,
  riskAdjusted,
  seasonOf,
  spreadTier,
  TIERS,
  TOP_TIER,
} from '../math';
import { insertDailySnapshots, insertSnapshotsBatch, loadMembers, loadSeasonSnapshots, loadSeasonTradeCounts } from '../queries';

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

/** Members ranked per tick while a season's close is under way (always at least one whole division). */
export const SEASON_CLOSE_BATCH = 5_000;

/**
 * Takes the next batch of the close of a season whose end has passed: under the season row's lock
 * (so two ticks never rank a division twice), the next divisions in (tier, division) order not yet
 * ranked (a ranked member always has an outcome), up to `batch` members but at least one division,
 * scored, ranked and stored; the season is marked closed when no division is left. `members`: the
 * members ranked; false when the season is not open (or not ended).
 */
const closeSeasonBatch = async (seasonId: string, at: Date, batch: number) => {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [season] = await tx
      .select()
      .from(leagueSeasons)
      .where(and(eq(leagueSeasons.id, seasonId), eq(leagueSeasons.status, 'open'), sql`${leagueSeasons.endsAt} <= ${at.toISOString()}::timestamptz`))
      .for('update');
    if (!season) return false as const;
    // Divisions not yet ranked (a member without a division counts in division 1, as when seated).
    const pending = rowsOf<{ tier: number; division: number; n: string }>(
      await tx.execute(sql`
        select tier, coalesce(division, 1) as division, count(*) as n from ${leagueMembers}
        where season_id = ${seasonId} and outcome is null group by 1, 2 order by 1, 2`),
    );
    const picked: { tier: number; division: number }[] = [];
    let size = 0;
    for (const d of pending) {
      if (picked.length > 0 && size + Number(d.n) > batch) break;
      picked.push({ tier: Number(d.tier), division: Number(d.division) });
      size += Number(d.n);
    }
    const members = await loadMembers(tx, seasonId, { divisions: picked });
    const division = new Map(members.map((m) => [m.user_id, m.division ?? 1]));
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
    const closed = picked.length === pending.length;
    if (closed) await tx.update(leagueSeasons).set({ status: 'closed', closedAt: at }).where(eq(leagueSeasons.id, seasonId));
    return { members: members.length, closed };
  });
};

type TCandidate = { user_id: string; kind: 'user' | 'agent' | 'actor'; equity: string; last_tier: number | null; last_outcome: 'promoted' | 'relegated' | 'stayed' | null };

/**
 * Accounts with today's close and no seat in the season, with their close and their last season's
 * tier and outcome: those of `onlyIds`, or (`page`) the next `limit` listed accounts after
 * `after` in code-unit order of their ids (COLLATE "C", an index of its own: migration 0033).
 */
const candidatesSql = (seasonId: string, day: string, pick: { onlyIds: readonly string[] } | { page: { after: string | null; limit: number } }) => sql`
  select s.user_id, s.kind, es.equity, last.tier as last_tier, last.outcome as last_outcome
  from ${standings} s
  join ${equitySnapshots} es on es.user_id = s.user_id and es.day = ${day}::date
  left join lateral (
    select m.tier, m.outcome from ${leagueMembers} m where m.user_id = s.user_id and m.season_id < ${seasonId}
    order by m.season_id desc limit 1
  ) last on true
  where s.listed
    ${'onlyIds' in pick ? sql`and s.user_id = any(${textArray(pick.onlyIds)})` : pick.page.after === null ? sql`` : sql`and s.user_id collate "C" > ${pick.page.after}`}
    and not exists (select 1 from ${leagueMembers} x where x.season_id = ${seasonId} and x.user_id = s.user_id)
  ${'page' in pick ? sql`order by s.user_id collate "C" limit ${pick.page.limit}` : sql``}`;

/** Accounts planned, seated or cleaned per phase and tick while a new season is seated. */
export const SEASON_SEATING_BATCH = 25_000;

/**
 * Stage: the next `limit` accounts after the cursor, each with its tier (nextTier for a returning
 * account, spreadTier for an NPC new to the leagues continuing from `npcDealt`, placementTier for
 * a newcomer: PLACEMENT_MULTIPLES, exact), written to the plan. Answers the accounts read, the
 * last id read and the NPCs dealt in the batch.
 */
const stageSql = (seasonId: string, day: string, after: string | null, npcDealt: number, limit: number, start: string) => {
  const placed = sql.join(
    PLACEMENT_MULTIPLES.map((p) => sql`when c.equity >= ${sql.raw(String(p.times))} * ${start}::numeric then ${sql.raw(String(p.tier))}`),
    sql` `,
  );
  return sql`
    with c as (${candidatesSql(seasonId, day, { page: { after, limit } })}),
    tiered as (
      select c.user_id, c.equity, (c.last_tier is null and c.kind = 'actor') as dealt,
        case
          when c.last_tier is not null then case c.last_outcome
            when 'promoted' then least(${sql.raw(String(TOP_TIER))}, c.last_tier + 1)
            when 'relegated' then greatest(0, c.last_tier - 1)
            else c.last_tier end
          when c.kind = 'actor' then ((${npcDealt}::int + row_number() over (partition by (c.last_tier is null and c.kind = 'actor') order by c.user_id collate "C") - 1) % ${sql.raw(String(TIERS.length))})::int
          when ${start}::numeric <= 0 then 0
          ${placed}
          else 0
        end as tier
      from c
    ),
    planned as (
      insert into ${leagueSeatingPlan} (season_id, user_id, tier, equity)
      select ${seasonId}, t.user_id, t.tier, t.equity from tiered t
      on conflict do nothing
    )
    select (select count(*) from tiered)::int as read,
      (select max(user_id collate "C") from tiered) as last,
      (select count(*) from tiered where dealt)::int as dealt`;
};

type TSeatCursor = { tier: number | null; equity: string | null; userId: string | null; rank: number };

/**
 * Seat: the plan's next `limit` rows after the cursor in (tier, start equity, user id) order (an
 * index range, migration 0033), each in division 1 + floor(i × ceil(n / DIVISION_SIZE) / n): i its
 * 0-based rank in its tier (the cursor's rank carried on in the cursor's tier), n the tier's size
 * (divisionsOf). Answers the rows taken, the seats written and the last row taken.
 */
const seatSql = (seasonId: string, cursor: TSeatCursor, limit: number, at: Date) => {
  const size = sql.raw(String(DIVISION_SIZE));
  const after =
    cursor.tier === null
      ? sql``
      : sql`and (p.tier, p.equity, p.user_id collate "C") > (${cursor.tier}::int, ${cursor.equity}::numeric, ${cursor.userId}::text collate "C")`;
  return sql`
    with taken as (
      select p.user_id, p.tier, p.equity,
        row_number() over (partition by p.tier order by p.equity, p.user_id collate "C") - 1
          + case when p.tier = ${cursor.tier}::int then ${cursor.rank + 1}::bigint else 0 end as i,
        row_number() over (order by p.tier, p.equity, p.user_id collate "C") as k
      from (
        select p.user_id, p.tier, p.equity from ${leagueSeatingPlan} p
        where p.season_id = ${seasonId} ${after}
        order by p.tier, p.equity, p.user_id collate "C" limit ${limit}
      ) p
    ),
    -- Counted once per tier taken (materialized: inlined into the join below, the planner may
    -- count a tier again for every row of it).
    sizes as materialized (
      select t.tier, (select count(*) from ${leagueSeatingPlan} q where q.season_id = ${seasonId} and q.tier = t.tier) as n
      from (select distinct tier from taken) t
    ),
    seated as (
      insert into ${leagueMembers} (season_id, user_id, tier, start_equity, division, joined_at)
      select ${seasonId}, t.user_id, t.tier, t.equity, (1 + (t.i * ((s.n + ${size} - 1) / ${size})) / s.n)::int, ${at.toISOString()}::timestamptz
      from taken t join sizes s on s.tier = t.tier
      on conflict do nothing
      returning 1
    )
    select (select count(*) from taken)::int as taken, (select count(*) from seated)::int as seated,
      last.tier, last.equity::text as equity, last.user_id, last.i::int as rank
    from (select 1) one left join lateral (select * from taken order by k desc limit 1) last on true`;
};

/**
 * A new season's whole field, seated over as many ticks as it takes (migration 0033): under the
 * season's row lock, the phases stage → seat → clean each take up to `batch` accounts, one after
 * the other while this tick's budget (`batch` accounts in all) lasts, so a small league is seated
 * in one tick and a million accounts in about 3 × 1,000,000 / batch. The seats are exactly those of
 * the pure rules (nextTier, spreadTier in user id order, placementTier, divisionsOf):
 * test/api/leagues-seating.int.test.ts. Answers the seats written and the rows the step touched.
 */
export async function seatNewSeasonStep(seasonId: string, day: string, at: Date, batch = SEASON_SEATING_BATCH) {
  const db = await getDb();
  return db.transaction(async (tx) => {
    await tx.select({ id: leagueSeasons.id }).from(leagueSeasons).where(eq(leagueSeasons.id, seasonId)).for('update');
    await tx.insert(leagueSeating).values({ seasonId, day, phase: 'stage', startedAt: at }).onConflictDoNothing();
    const [state] = await tx.select().from(leagueSeating).where(eq(leagueSeating.seasonId, seasonId)).for('update');
    let { phase, afterUserId, npcDealt } = state!;
    let cursor: TSeatCursor = { tier: state!.seatTier, equity: state!.seatEquity, userId: state!.seatUserId, rank: state!.seatRank };
    let budget = batch;
    let seated = 0;
    let cost = 0;
    // A phase that ends with budget to spare hands on; one that uses it all waits for the next tick.
    while (budget > 0 && phase !== 'done') {
      if (phase === 'stage') {
        const [r] = rowsOf<{ read: number; last: string | null; dealt: number }>(
          await tx.execute(stageSql(seasonId, state!.day, afterUserId, npcDealt, budget, env().startingBalance)),
        );
        const read = Number(r!.read);
        if (r!.last !== null) afterUserId = r!.last;
        npcDealt += Number(r!.dealt);
        cost += read;
        if (read < budget) {
          phase = 'seat';
          // The plan was just written: fresh statistics, so the seat phase's keyset reads are
          // planned as index ranges with a limit, not as a scan and sort of the whole plan.
          await tx.execute(sql`analyze ${leagueSeatingPlan}`);
        }
        budget -= read;
      } else if (phase === 'seat') {
        const [r] = rowsOf<{ taken: number; seated: number; tier: number | null; equity: string | null; user_id: string | null; rank: number | null }>(
          await tx.execute(seatSql(seasonId, cursor, budget, at)),
        );
        const taken = Number(r!.taken);
        if (r!.tier !== null) cursor = { tier: Number(r!.tier), equity: r!.equity, userId: r!.user_id, rank: Number(r!.rank) };
        seated += Number(r!.seated);
        cost += taken;
        if (taken < budget) phase = 'clean';
        budget -= taken;
      } else {
        const gone = rowsOf<{ n: number }>(
          await tx.execute(sql`
            with gone as (
              delete from ${leagueSeatingPlan} where season_id = ${seasonId}
                and user_id in (select user_id from ${leagueSeatingPlan} where season_id = ${seasonId} limit ${budget})
              returning 1
            ) select count(*)::int as n from gone`),
        );
        const n = Number(gone[0]!.n);
        cost += n;
        if (n < budget) phase = 'done';
        budget -= n;
      }
    }
    await tx
      .update(leagueSeating)
      .set({ phase, afterUserId, npcDealt, seatTier: cursor.tier, seatEquity: cursor.equity, seatUserId: cursor.userId, seatRank: cursor.rank, finishedAt: phase === 'done' ? at : null })
      .where(eq(leagueSeating.seasonId, seasonId));
    return { seated, cost, done: phase === 'done' };
  });
}

/**
 * Seats accounts with today's close and no seat in the season: players, agents and NPC actors (an
 * NPC's first tier is spread by its id, so every tier has a field; later, results move it): the
 * accounts of `onlyIds`, the day's closes as they are taken. A season nobody is seated in yet gets
 * its whole field through seatNewSeasonStep; these later arrivals join the divisions already
 * there (a tier without any is split by size among them).
 */
export async function seatPlayers(seasonId: string, day: string, at: Date, onlyIds: readonly string[]) {
  const db = await getDb();
  return db.transaction(async (tx) => {
    // One seating at a time per season: the season's row lock.
    await tx.select({ id: leagueSeasons.id }).from(leagueSeasons).where(eq(leagueSeasons.id, seasonId)).for('update');
    const existing = rowsOf<{ tier: number; division: number; max_equity: string }>(
      await tx.execute(sql`
        select tier, division, max(start_equity)::text as max_equity from ${leagueMembers}
        where season_id = ${seasonId} group by tier, division order by tier, division`),
    );
    const candidates = rowsOf<TCandidate>(
      await tx.execute(sql`select c.user_id, c.kind, c.equity::text as equity, c.last_tier, c.last_outcome from (${candidatesSql(seasonId, day, { onlyIds })}) c`),
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
}

/** Accounts closed per tick while a day's close is under way (100,000 accounts: about 20 ticks). */
export const DAILY_CLOSE_BATCH = 5_000;

/**
 * Takes the next batch of the close of `day`: creates its progress row on the day's first tick
 * (then `first`), snapshots up to `batch` accounts after the cursor, and marks the day done when a
 * batch comes short. Under the progress row's lock, so two ticks never take the same batch.
 */
const closeDayBatch = async (day: string, at: Date, batch: number) => {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const created = await tx.insert(leagueCloseProgress).values({ day, startedAt: at }).onConflictDoNothing().returning({ day: leagueCloseProgress.day });
    const [row] = await tx.select().from(leagueCloseProgress).where(eq(leagueCloseProgress.day, day)).for('update');
    if (!row || row.done) return { first: created.length > 0, inserted: [] as string[], read: 0, done: true, completedNow: false };
    const r = await insertSnapshotsBatch(tx, day, at, { afterUserId: row.afterUserId, limit: batch });
    const done = r.read < batch;
    await tx
      .update(leagueCloseProgress)
      .set({ afterUserId: r.last ?? row.afterUserId, done, finishedAt: done ? at : null })
      .where(eq(leagueCloseProgress.day, day));
    return { first: created.length > 0, inserted: r.inserted, read: r.read, done, completedNow: done };
  });
};

/**
 * The tick's league step. The daily close is taken in batches of DAILY_CLOSE_BATCH accounts over
 * the day's first ticks (league_close_progress, migration 0028); the accounts of a batch are
 * seated as it is taken when the season already has its divisions, else (a new season) all at
 * once when the close is complete and the seasons that ended are closed (after the day's close, in
 * batches of SEASON_CLOSE_BATCH members, `seasonBatch`, over as many ticks as it takes). Between
 * closes only new players get their first close and a seat. `seasonsClosed` counts the seasons
 * fully closed this tick. `cost`: the accounts and members the step read or wrote (members ranked).
 */
export async function runLeagueStep(at: Date, opts: { batch?: number; seasonBatch?: number; seatBatch?: number } = {}) {
  const db = await getDb();
  const day = closedDayOf(at);
  const progress = await closeDayBatch(day, at, opts.batch ?? DAILY_CLOSE_BATCH);
  const snapshots = progress.inserted.length;
  // NPCs earn their points for the closed day's activity (once per day: the award key).
  if (progress.first) await awardNpcActivity(day);
  // Players first ranked in the last minutes get their first close now (also while the day's
  // batches run: the cursor may already be past their id).
  const newcomers = progress.first ? [] : await insertDailySnapshots(db, day, at, { newPlayersSince: new Date(at.getTime() - NEWCOMER_WINDOW_MS) });
  let closed = 0;
  let closedMembers = 0;
  // A season that ended and is not yet fully closed: the next season is not seated until it is
  // (seating reads each member's last outcome).
  let closing = false;
  if (progress.done) {
    const due = await db
      .select({ id: leagueSeasons.id })
      .from(leagueSeasons)
      .where(and(eq(leagueSeasons.status, 'open'), sql`${leagueSeasons.endsAt} <= ${at.toISOString()}::timestamptz`))
      .orderBy(leagueSeasons.id);
    const batch = opts.seasonBatch ?? SEASON_CLOSE_BATCH;
    for (const s of due) {
      // One budget for the tick: a season left once it is spent waits for the next tick.
      if (closedMembers >= batch) {
        closing = true;
        break;
      }
      const r = await closeSeasonBatch(s.id, at, batch - closedMembers);
      if (r === false) continue;
      closedMembers += r.members;
      if (r.closed) closed++;
      else closing = true;
    }
  }
  const current = seasonOf(at);
  await db.insert(leagueSeasons).values({ id: current.id, startsAt: current.startsAt, endsAt: current.endsAt, status: 'open' }).onConflictDoNothing();
  const fresh = [...progress.inserted, ...newcomers];
  // The seating's budget: its own, or the day's close batch when a caller sets that alone.
  const seatBatch = opts.seatBatch ?? opts.batch ?? SEASON_SEATING_BATCH;
  let seated = 0;
  let seatingCost = 0;
  if (!closing) {
    // A new season's field is seated over ticks once the close is complete (divisions split by size
    // need it all) and the seasons that ended are closed (seatNewSeasonStep); while that runs, the
    // accounts just closed wait (the next day's close offers them again). A season with its
    // divisions seats the accounts just closed, batch by batch.
    const [seating] = await db.select({ phase: leagueSeating.phase }).from(leagueSeating).where(eq(leagueSeating.seasonId, current.id));
    if (seating && seating.phase !== 'done') {
      const r = await seatNewSeasonStep(current.id, day, at, seatBatch);
      seated = r.seated;
      seatingCost = r.cost;
    } else if (fresh.length > 0 || progress.completedNow || closed > 0) {
      const [has] = rowsOf<{ ok: boolean }>(
        await db.execute(sql`select exists (select 1 from ${leagueMembers} where season_id = ${current.id}) as ok`),
      );
      // (A seating that is done leaves no one behind but those who closed since: they join.)
      if (has?.ok || seating) seated = fresh.length > 0 ? await seatPlayers(current.id, day, at, fresh) : 0;
      else if (progress.done) {
        const r = await seatNewSeasonStep(current.id, day, at, seatBatch);
        seated = r.seated;
        seatingCost = r.cost;
      }
    }
  }
  return {
    snapshots: snapshots + newcomers.length,
    seasonsClosed: closed,
    seated,
    season: current.id,
    // A new season's seating counts each account at each of its phases (staged, seated, cleaned).
    cost: progress.read + newcomers.length + (seatingCost || seated) + closedMembers,
  };
}
