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
import { sql } from 'drizzle-orm';
import { getDb, rowsOf, textArray } from '@/db/client';
import { pointsTransactions, standings, standingsDirty, users } from '@/db/schema';
import { now } from '@/lib/clock/clock';
import { computeReputations } from '@/lib/reputation/refresh';

/** Marks handled per run; more wait for the next run (the tick loops while its budget lasts). */
export const REFRESH_BATCH = 5_000;
/** Reputations recomputed per pass. */
export const REPUTATION_SWEEP = 500;
/** Reputations the tick recomputes at most (changed accounts first, then the stalest). */
export const REPUTATION_PER_TICK = 5_000;

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
          case when u.is_actor then 'actor' when u.is_agent then 'agent' else 'user' end,
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
    return { marked: marked.length, refreshed };
  });
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
 * REPUTATION_SWEEP accounts while the changed ones are not all done, at most `reputationLimit`.
 */
export async function refreshAllStandings(deadline = Infinity, reputationLimit = REPUTATION_PER_TICK) {
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
  return { refreshed, reputations };
}

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
