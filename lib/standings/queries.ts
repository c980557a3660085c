/**
 * Reading the standings read model. A page is a range of the board's partial index
 * (points desc, user id) joined to users by primary key; a rank is 1 + a count of the index's
 * head above a score. Nothing here scans users or their histories.
 */
import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, textArray, type DbOrTx } from '@/db/client';
import { equitySnapshots, standings, users } from '@/db/schema';
import type { TPointsType } from './ranking';

const BOARD: Record<TPointsType, SQL> = {
  all: sql.raw('points'),
  earned: sql.raw('earned_points'),
  referral: sql.raw('referral_points'),
};

export type TStandingRow = {
  user_id: string;
  kind: 'user' | 'actor' | 'agent';
  points: number;
  earned_points: number;
  referral_points: number;
  lifetime_pnl: string;
  reputation: number;
  username: string;
  display_name: string;
  profile_image_url: string | null;
  /** The page's first row: the rows with a higher score. The caller's row: the same for its own. */
  above: string;
};

/**
 * A page of the board, each row carrying the count above the page's top. The offset walks the
 * board's index alone (keys only: an index-only scan), then the page's rows are fetched by key.
 * `desc nulls last` is the index's own order: any other and PostgreSQL sorts the whole table.
 */
export async function loadBoardPage(db: DbOrTx, board: TPointsType, limit: number, offset: number) {
  const col = BOARD[board];
  return rowsOf<TStandingRow>(
    await db.execute(sql`
      with keys as (
        select s.user_id, s.${col} as score from ${standings} s where s.listed
        order by s.${col} desc nulls last, s.user_id
        limit ${limit} offset ${offset}
      )
      select s.user_id, s.kind, s.points, s.earned_points, s.referral_points, s.lifetime_pnl::text as lifetime_pnl, s.reputation,
        u.username, u.display_name, u.profile_image_url,
        (select count(*) from ${standings} x where x.listed and x.${col} > (select max(score) from keys)) as above
      from keys k join ${standings} s on s.user_id = k.user_id join ${users} u on u.id = k.user_id
      order by k.score desc, k.user_id`),
  );
}

/** How many accounts are ranked (the same on every board). */
export async function countRanked(db: DbOrTx) {
  const [r] = rowsOf<{ n: string }>(await db.execute(sql`select count(*) as n from ${standings} where listed`));
  return Number(r?.n ?? 0);
}

/** One account's row and its rank on the board (absent when not ranked: unknown, banned, a pool). */
export async function loadBoardEntry(db: DbOrTx, board: TPointsType, userId: string) {
  const col = BOARD[board];
  const [row] = rowsOf<TStandingRow>(
    await db.execute(sql`
      select s.user_id, s.kind, s.points, s.earned_points, s.referral_points, s.lifetime_pnl::text as lifetime_pnl, s.reputation,
        u.username, u.display_name, u.profile_image_url,
        (select count(*) from ${standings} x where x.listed and x.${col} > s.${col}) as above
      from ${standings} s join ${users} u on u.id = s.user_id
      where s.user_id = ${userId} and s.listed`),
  );
  return row;
}

/** lifetimePnL at each daily close since `sinceDay` for the given accounts, oldest first. */
export async function loadPnlHistory(db: DbOrTx, userIds: readonly string[], sinceDay: string) {
  const out = new Map<string, number[]>();
  if (userIds.length === 0) return out;
  const rows = rowsOf<{ user_id: string; pnl: string }>(
    await db.execute(sql`
      select user_id, lifetime_pnl::text as pnl from ${equitySnapshots}
      where user_id = any(${textArray(userIds)}) and day >= ${sinceDay}::date
      order by user_id, day`),
  );
  for (const r of rows) {
    const list = out.get(r.user_id) ?? [];
    list.push(Number(r.pnl));
    out.set(r.user_id, list);
  }
  return out;
}
