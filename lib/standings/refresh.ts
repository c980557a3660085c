/**
 * The standings read model's refresh: recomputes the rows of the accounts marked in
 * standings_dirty (by the triggers of migration 0010, in the transaction that changed them) and
 * the reputation of those accounts plus a few of the stalest, so every account's reputation is
 * recomputed in turn. Incremental: the work is proportional to what changed, never to the number
 * of users. Safe to run from several places at once (the tick, a read, a test): each run takes
 * the marks it handles with SKIP LOCKED and deletes them in its own transaction; a change that
 * commits meanwhile marks its account again.
 */
import 'server-only';
import { sql } from 'drizzle-orm';
import { getDb, rowsOf } from '@/db/client';
import { pointsTransactions, standings, standingsDirty, users } from '@/db/schema';
import { now } from '@/lib/clock/clock';
import { refreshReputation } from '@/lib/reputation/refresh';

/** Marks handled per run; more wait for the next run (the tick loops while its budget lasts). */
export const REFRESH_BATCH = 5_000;
/** Accounts whose reputation is recomputed per run although nothing marked them (followers gained elsewhere, questions resolved). */
export const REPUTATION_SWEEP = 200;

/** The points board columns in SQL, classified as lib/standings/ranking pointsKindOf does. */
const REFERRAL_REASON = sql`(pt.reason = 'milestone:first_referral' or pt.reason like 'referral%')`;
const TRANSFER_REASON = sql`pt.reason in ('transfer_in', 'transfer_out')`;

/** One run: answers the accounts refreshed and the reputations recomputed. */
export const refreshStandings = async (opts: { limit?: number; sweep?: number } = {}) => {
  const db = await getDb();
  const at = now();
  const limit = opts.limit ?? REFRESH_BATCH;
  const refreshed = await db.transaction(async (tx) => {
    const rows = rowsOf<{ user_id: string }>(
      await tx.execute(sql`
        with picked as (
          delete from ${standingsDirty}
          where user_id in (select user_id from ${standingsDirty} order by user_id limit ${limit} for update skip locked)
          returning user_id
        )
        insert into ${standings} (user_id, kind, listed, points, earned_points, referral_points, lifetime_pnl, refreshed_at)
        select u.id,
          case when u.is_actor then 'actor' when u.is_agent then 'agent' else 'user' end,
          not u.is_banned,
          u.reputation_points,
          coalesce(p.earned, 0),
          coalesce(p.referral, 0),
          u.lifetime_pnl,
          ${at.toISOString()}::timestamptz
        from picked d
        join ${users} u on u.id = d.user_id and not u.is_pool_account
        left join lateral (
          select sum(pt.amount) filter (where not ${REFERRAL_REASON} and not ${TRANSFER_REASON}) as earned,
                 sum(pt.amount) filter (where ${REFERRAL_REASON}) as referral
          from ${pointsTransactions} pt where pt.user_id = u.id
        ) p on true
        on conflict (user_id) do update set
          kind = excluded.kind, listed = excluded.listed, points = excluded.points,
          earned_points = excluded.earned_points, referral_points = excluded.referral_points,
          lifetime_pnl = excluded.lifetime_pnl, refreshed_at = excluded.refreshed_at
        returning user_id`),
    );
    return rows.map((r) => r.user_id);
  });
  const reputations = await refreshReputation(refreshed, opts.sweep ?? REPUTATION_SWEEP);
  return { refreshed: refreshed.length, reputations };
};

/** Refreshes until no mark is left or the deadline passes (the tick's step). */
export const refreshAllStandings = async (deadline = Infinity) => {
  let refreshed = 0;
  let reputations = 0;
  let sweep = REPUTATION_SWEEP;
  for (;;) {
    const run = await refreshStandings({ sweep });
    refreshed += run.refreshed;
    reputations += run.reputations;
    sweep = 0;
    if (run.refreshed < REFRESH_BATCH || performance.now() > deadline) return { refreshed, reputations };
  }
};

/** Whether any account waits for a refresh (cheap: one index probe). */
export const hasDirtyStandings = async () => {
  const db = await getDb();
  const [r] = rowsOf<{ dirty: boolean }>(await db.execute(sql`select exists (select 1 from ${standingsDirty}) as dirty`));
  return Boolean(r?.dirty);
};
