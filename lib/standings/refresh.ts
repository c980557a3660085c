/**
 * The standings read model's refresh, in two passes. The board: recomputes the rows of the
 * accounts marked in standings_dirty (by the triggers of migration 0010, in the transaction that
 * changed them). Reputation: recomputes the changed accounts first, then the stalest, so every
 * account's reputation is recomputed in turn. Incremental: the work follows what changed, never
 * the number of users. Safe to run from several places at once (the tick, a read, a test): each
 * board run takes the marks it handles with SKIP LOCKED and deletes them in its own transaction;
 * a change that commits meanwhile marks its account again.
 */
import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import { getDb, rowsOf, textArray } from '@/db/client';
import { equitySnapshots, pointsTransactions, standings, standingsDirty, users } from '@/db/schema';
import { now } from '@/lib/clock/clock';
import { accountNumbersSql, contributionsSql } from '@/lib/equity/sql';
import { closedDayOf, seasonOf } from '@/lib/leagues/math';
import { computeReputations } from '@/lib/reputation/refresh';

/** Marks handled per run; more wait for the next run (the tick loops while its budget lasts). */
export const REFRESH_BATCH = 5_000;
/** Reputations recomputed per pass. */
export const REPUTATION_SWEEP = 500;
/** Reputations the tick recomputes at most (changed accounts first, then the stalest). */
export const REPUTATION_PER_TICK = 5_000;

/** P&L board rows recomputed per tick at most (changed accounts first, then the stalest): everyone in turn. */
export const PNL_SWEEP = 1_000;

/** The points board columns in SQL, classified as lib/standings/ranking pointsKindOf does. */
const REFERRAL_REASON = sql`(pt.reason = 'milestone:first_referral' or pt.reason like 'referral%')`;
const TRANSFER_REASON = sql`pt.reason in ('transfer_in', 'transfer_out')`;

/** An int[] parameter from a list (one parameter, however long). */
const intArray = (items: readonly number[]) => sql`${`{${items.join(',')}}`}::int[]`;

/**
 * One run of the board's refresh, one transaction: takes up to `limit` marks and upserts those
 * accounts' rows. A changed account's reputation is marked stale (reputation_at null), so the
 * reputation pass recomputes it first. Answers how many marks were taken and rows written.
 */
export async function refreshStandings(opts: { limit?: number } = {}) {
  const db = await getDb();
  const at = sql`${now().toISOString()}::timestamptz`;
  const limit = opts.limit ?? REFRESH_BATCH;
  return db.transaction(async (tx) => {
    const marked = rowsOf<{ user_id: string }>(
      await tx.execute(sql`
        delete from ${standingsDirty}
        where user_id in (select user_id from ${standingsDirty} order by user_id limit ${limit} for update skip locked)
        returning user_id`),
    ).map((r) => r.user_id);
    if (marked.length === 0) return { marked: 0, refreshed: 0 };
    // unnest rather than = any(…): the planner then expects a few rows and joins by primary key
    // (with = any of a thousand ids it estimated a scan of every user).
    const refreshed = rowsOf<{ user_id: string }>(
      await tx.execute(sql`
        insert into ${standings} (user_id, kind, listed, points, earned_points, referral_points, lifetime_pnl, refreshed_at, created_at)
        select u.id,
          case when u.is_actor then 'actor' when u.is_agent or u.bot_since is not null then 'agent' else 'user' end,
          not u.is_banned, u.reputation_points, coalesce(p.earned, 0), coalesce(p.referral, 0), u.lifetime_pnl, ${at}, ${at}
        from unnest(${textArray(marked)}) as d(user_id)
        join ${users} u on u.id = d.user_id and not u.is_pool_account
        left join lateral (
          select sum(pt.amount) filter (where not ${REFERRAL_REASON} and not ${TRANSFER_REASON}) as earned,
                 sum(pt.amount) filter (where ${REFERRAL_REASON}) as referral
          from ${pointsTransactions} pt where pt.user_id = u.id
        ) p on true
        on conflict (user_id) do update set
          kind = excluded.kind, listed = excluded.listed, points = excluded.points,
          earned_points = excluded.earned_points, referral_points = excluded.referral_points,
          lifetime_pnl = excluded.lifetime_pnl, reputation_at = null, refreshed_at = excluded.refreshed_at
        returning user_id`),
    ).length;
    // Their P&L boards too (a changed account is seen at once, not at its turn in the sweep).
    await tx.execute(NO_JIT);
    await tx.execute(pnlUpdateSql(sql`(select unnest(${textArray(marked)}))`));
    return { marked: marked.length, refreshed };
  });
}

const DAY_MS = 86_400_000;

/**
 * The P&L at an account's last daily close on or before `day` (null: none). A close before
 * migration 0022 has no stored P&L: it is its equity less the contributions until it was taken.
 */
function pnlAtCloseSql(day: string) {
  return sql`(select coalesce(es.pnl, es.equity - ${contributionsSql('su', { until: sql`es.created_at` })})
    from ${equitySnapshots} es where es.user_id = su.id and es.day <= ${day}::date order by es.day desc limit 1)`;
}

/** The P&L at an account's first close (for an account older than a period whose closes began later). */
const firstCloseSql = sql`(select coalesce(es.pnl, es.equity - ${contributionsSql('su', { until: sql`es.created_at` })})
    from ${equitySnapshots} es where es.user_id = su.id order by es.day asc limit 1)`;

/**
 * A period's starting P&L: the close that ends the day before the period (`day`); an account
 * created after that close started at 0 (every account starts with no P&L); an older account
 * whose closes began later starts at its first close.
 */
function periodStartSql(day: string) {
  const after = new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString();
  return sql`coalesce(${pnlAtCloseSql(day)}, case when su.created_at >= ${after}::timestamptz then 0 else ${firstCloseSql} end, 0)`;
}

/** ROI of a period: its P&L over what was at stake (equity at its start + contributions during it = start P&L + contributions now). */
function roiSql(pnl: SQL, start: SQL) {
  return sql`(case when (${start}) + p.contributions > 0 then round((${pnl}) / ((${start}) + p.contributions), 8) else 0 end)`;
}

/**
 * The UPDATE that recomputes the P&L boards of the accounts `ids` yields (a FROM item of user
 * ids), as of game time now: lib/equity's numbers (one definition), each period's P&L = P&L now −
 * P&L at the period's starting close (day: the last close; week: the close 7 days before it;
 * season: the close on the eve of the league season), ROI per roiSql.
 */
function pnlUpdateSql(ids: SQL) {
  const at = now();
  const day = closedDayOf(at);
  const week = closedDayOf(new Date(at.getTime() - 7 * DAY_MS));
  const season = closedDayOf(seasonOf(at).startsAt);
  return sql`
    with n as materialized (${accountNumbersSql(ids)}),
    p as (
      select n.user_id, n.equity, n.pnl_total, n.contributions,
        ${periodStartSql(day)} as d0, ${periodStartSql(week)} as w0, ${periodStartSql(season)} as s0
      from n join ${users} su on su.id = n.user_id
    )
    update ${standings} s set
      equity = p.equity, pnl_all = p.pnl_total,
      pnl_day = p.pnl_total - p.d0, pnl_week = p.pnl_total - p.w0, pnl_season = p.pnl_total - p.s0,
      roi_all = ${roiSql(sql`p.pnl_total`, sql`0`)}, roi_day = ${roiSql(sql`p.pnl_total - p.d0`, sql`p.d0`)},
      roi_week = ${roiSql(sql`p.pnl_total - p.w0`, sql`p.w0`)}, roi_season = ${roiSql(sql`p.pnl_total - p.s0`, sql`p.s0`)},
      pnl_at = ${at.toISOString()}::timestamptz
    from p
    where s.user_id = p.user_id`;
}

/**
 * The reputation pass: recomputes the `limit` stalest reputations (changed accounts first: their
 * reputation_at is null, then the oldest), so every account is recomputed in turn even when
 * nothing marked it (a question resolved, a report upheld). Answers how many were stored.
 */
export async function refreshReputations(limit = REPUTATION_SWEEP) {
  const db = await getDb();
  const at = sql`${now().toISOString()}::timestamptz`;
  const ids = rowsOf<{ user_id: string }>(
    await db.execute(sql`select user_id from ${standings} order by reputation_at asc nulls first, user_id limit ${limit}`),
  ).map((r) => r.user_id);
  const reputation = await computeReputations(db, ids);
  const known = ids.filter((id) => reputation.has(id));
  if (known.length === 0) return 0;
  await db.execute(sql`
    update ${standings} s set reputation = v.score, reputation_level = v.level, reputation_at = ${at}
    from unnest(${textArray(known)}, ${intArray(known.map((id) => reputation.get(id)!.score))}, ${textArray(known.map((id) => reputation.get(id)!.level))}) as v(user_id, score, level)
    where s.user_id = v.user_id`);
  return known.length;
}

/**
 * The tick's step: the board until no mark is left (or the deadline), then reputation passes of
 * REPUTATION_SWEEP accounts while the changed ones are not all done, at most `reputationLimit`,
 * then the P&L sweep of the `pnlLimit` stalest accounts.
 */
export async function refreshAllStandings(deadline = Infinity, reputationLimit = REPUTATION_PER_TICK, pnlLimit = PNL_SWEEP) {
  let refreshed = 0;
  for (;;) {
    const run = await refreshStandings();
    refreshed += run.refreshed;
    if (run.marked < REFRESH_BATCH || performance.now() > deadline) break;
  }
  let reputations = 0;
  while (reputations < reputationLimit && performance.now() < deadline) {
    const n = await refreshReputations(Math.min(REPUTATION_SWEEP, reputationLimit - reputations));
    reputations += n;
    if (n === 0 || !(await hasStaleReputation())) break;
  }
  // One sweep of the oldest each tick even when nothing changed.
  if (reputationLimit > 0 && reputations === 0 && performance.now() < deadline) reputations += await refreshReputations();
  const pnl = performance.now() < deadline ? await refreshPnlBoards(pnlLimit) : 0;
  return { refreshed, reputations, pnl };
}

/**
 * The P&L sweep: recomputes the P&L boards of the `limit` stalest accounts (never computed first),
 * so every account's P&L follows the prices in turn. Answers how many rows it wrote.
 */
export async function refreshPnlBoards(limit = PNL_SWEEP) {
  const db = await getDb();
  const picked = sql`(select user_id from ${standings} order by pnl_at asc nulls first, user_id limit ${limit})`;
  return db.transaction(async (tx) => {
    await tx.execute(NO_JIT);
    return rowsOf<{ user_id: string }>(await tx.execute(sql`${pnlUpdateSql(picked)} returning s.user_id`)).length;
  });
}

/**
 * The P&L statement is many small correlated lookups whose summed estimate crosses PostgreSQL's
 * JIT threshold: compiling them cost more than a second for a dozen accounts (measured), running
 * them a few milliseconds. Off for its transaction only.
 */
const NO_JIT = sql`set local jit = off`;

/** Whether an account's reputation waits for recomputing after a change. */
const hasStaleReputation = async () => {
  const db = await getDb();
  const [r] = rowsOf<{ stale: boolean }>(await db.execute(sql`select exists (select 1 from ${standings} where reputation_at is null) as stale`));
  return Boolean(r?.stale);
};

/** Whether any account waits for a refresh (cheap: one index probe). */
export async function hasDirtyStandings() {
  const db = await getDb();
  const [r] = rowsOf<{ dirty: boolean }>(await db.execute(sql`select exists (select 1 from ${standingsDirty}) as dirty`));
  return Boolean(r?.dirty);
}
