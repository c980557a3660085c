/**
 * The raw figures behind reputation (lib/reputation/score.ts), for a set of accounts in one
 * statement: every figure is an indexed lookup per account (positions, trades, followers, posts,
 * referrals, reports, the newest league result), so the cost follows the accounts asked for.
 */
import 'server-only';
import { sql } from 'drizzle-orm';
import { rowsOf, textArray, type DbOrTx } from '@/db/client';
import { follows, leagueMembers, marketPositions, markets, perpPositions, perpTrades, posts, referrals, reports, trades, users } from '@/db/schema';
import type { TReputationInputs } from './score';

type TRow = {
  id: string;
  closed: string;
  wins: string;
  volume: string;
  league_score: string | null;
  forecasts: string;
  brier: string | null;
  followers: string;
  engagement: string;
  points: number;
  referrals: string;
  upheld: string;
  banned: boolean;
};

/** Answers the inputs of each existing account among `userIds`. */
export async function loadReputationInputs(db: DbOrTx, userIds: readonly string[]): Promise<Map<string, TReputationInputs>> {
  const out = new Map<string, TReputationInputs>();
  if (userIds.length === 0) return out;
  const ids = textArray(userIds);
  const rows = rowsOf<TRow>(
    await db.execute(sql`
      select u.id, u.reputation_points as points, u.is_banned as banned,
        (select count(*) from ${marketPositions} mp where mp.user_id = u.id and mp.settled_at is not null)
          + (select count(*) from ${perpPositions} pp where pp.user_id = u.id and pp.status <> 'open') as closed,
        (select count(*) from ${marketPositions} mp where mp.user_id = u.id and mp.settled_at is not null and mp.realized_pnl > 0)
          + (select count(*) from ${perpPositions} pp where pp.user_id = u.id and pp.status <> 'open' and pp.realized_pnl > 0) as wins,
        (select coalesce(sum(t.amount), 0) from ${trades} t where t.user_id = u.id)
          + (select coalesce(sum(pt.size), 0) from ${perpTrades} pt where pt.user_id = u.id and pt.action <> 'liquidation') as volume,
        (select lm.score from ${leagueMembers} lm where lm.user_id = u.id and lm.qualified order by lm.season_id desc limit 1) as league_score,
        f.forecasts, f.brier,
        (select count(*) from ${follows} fo where fo.following_id = u.id) as followers,
        (select coalesce(sum(p.likes_count + p.comments_count + p.shares_count), 0) from ${posts} p where p.author_id = u.id) as engagement,
        (select count(*) from ${referrals} r where r.referrer_id = u.id) as referrals,
        (select count(*) from ${reports} rp where rp.reported_user_id = u.id and rp.status = 'resolved') as upheld
      from unnest(${ids}) as i(id)
      join ${users} u on u.id = i.id
      left join lateral (
        -- One forecast per resolved question: the amount-weighted mean of what each buy implied
        -- (buying YES at q says "more than q": (1 + q) / 2; buying NO at q, YES at (1 − q) / 2).
        select count(*) as forecasts, avg((q.p - q.o) ^ 2) as brier
        from (
          select sum(t.amount * case when t.side = 'YES' then (1 + t.price) / 2 else (1 - t.price) / 2 end) / nullif(sum(t.amount), 0) as p,
                 max(case when m.resolved_outcome = 'YES' then 1 else 0 end) as o
          from ${trades} t join ${markets} m on m.id = t.market_id
          where t.user_id = u.id and t.action = 'buy' and m.status = 'resolved'
          group by t.market_id
        ) q where q.p is not null
      ) f on true`),
  );
  for (const r of rows) {
    out.set(r.id, {
      closedPositions: Number(r.closed),
      winningPositions: Number(r.wins),
      volume: Number(r.volume),
      leagueScore: r.league_score === null ? null : Number(r.league_score),
      resolvedForecasts: Number(r.forecasts),
      brier: r.brier === null || Number(r.forecasts) === 0 ? null : Number(r.brier),
      followers: Number(r.followers),
      engagement: Number(r.engagement),
      points: Number(r.points),
      referrals: Number(r.referrals),
      upheldReports: Number(r.upheld),
      banned: Boolean(r.banned),
    });
  }
  return out;
}
