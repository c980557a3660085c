/**
 * The system's figures in one statement: each a count or sum over an indexed range (the last 24
 * hours by created_at, statuses), plus the pools' cash and open positions for their assets.
 * Posts count as the public sees them (lib/moderation/visibility: banned authors' posts do not).
 */
import 'server-only';
import { sql } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '@/db/client';
import { balanceTransactions, comments, markets, perpPositions, perpTrades, pools, posts, trades, users } from '@/db/schema';
import { canSee } from '@/lib/moderation/visibility';

export type TStatsRow = {
  players: string;
  actors: string;
  agents: string;
  active_24h: string;
  open_questions: string;
  resolved_questions: string;
  prediction_volume_24h: string;
  perps_open_interest: string;
  perps_volume_24h: string;
  posts_24h: string;
  pool_accounts: string[] | null;
};

export async function loadStatsRow(db: DbOrTx, since: Date): Promise<TStatsRow> {
  const ts = sql`${since.toISOString()}::timestamptz`;
  const [row] = rowsOf<TStatsRow>(
    await db.execute(sql`
      select
        (select count(*) from ${users} where not is_actor and not is_agent and not is_pool_account) as players,
        (select count(*) from ${users} where is_actor) as actors,
        (select count(*) from ${users} where is_agent) as agents,
        (select count(*) from (
          select user_id from ${balanceTransactions} where created_at > ${ts}
          union select author_id from ${posts} where created_at > ${ts}
          union select author_id from ${comments} where created_at > ${ts}
        ) a join ${users} u on u.id = a.user_id where not u.is_actor and not u.is_pool_account) as active_24h,
        (select count(*) from ${markets} where status = 'active') as open_questions,
        (select count(*) from ${markets} where status = 'resolved') as resolved_questions,
        (select coalesce(sum(amount), 0) from ${trades} where created_at > ${ts}) as prediction_volume_24h,
        (select coalesce(sum(size), 0) from ${perpPositions} where status = 'open') as perps_open_interest,
        (select coalesce(sum(size), 0) from ${perpTrades} where created_at > ${ts} and action <> 'liquidation') as perps_volume_24h,
        (select count(*) from ${posts} p where p.created_at > ${ts} and ${canSee(sql`p.author_id`, null)}) as posts_24h,
        (select array_agg(account_user_id order by id) from ${pools}) as pool_accounts`),
  );
  return row!;
}
