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
  /** The page's first row: 1 + rows with a higher score. The caller's row: its own rank. */
  above: string;
  total: string;
};

/** A page of the board, each row carrying the board's size and the count above the page's top. */
export const loadBoardPage = async (db: DbOrTx, board: TPointsType, limit: number, offset: number) => {
  const col = BOARD[board];
  return rowsOf<TStandingRow>(
    await db.execute(sql`
      with page as (
        select s.user_id, s.kind, s.points, s.earned_points, s.referral_points, s.lifetime_pnl, s.reputation
        from ${standings} s where s.listed
        order by s.${col} desc, s.user_id
        limit ${limit} offset ${offset}
      )
      select p.user_id, p.kind, p.points, p.earned_points, p.referral_points, p.lifetime_pnl::text as lifetime_pnl, p.reputation,
        u.username, u.display_name, u.profile_image_url,
        (select count(*) from ${standings} x where x.listed and x.${col} > (select max(${col}) from page)) as above,
        (select count(*) from ${standings} x where x.listed) as total
      from page p join ${users} u on u.id = p.user_id
      order by p.${col} desc, p.user_id`),
  );
};

/** One account's row and its rank on the board (absent when not ranked: unknown, banned, a pool). */
export const loadBoardEntry = async (db: DbOrTx, board: TPointsType, userId: string) => {
  const col = BOARD[board];
  const [row] = rowsOf<TStandingRow>(
    await db.execute(sql`
      select s.user_id, s.kind, s.points, s.earned_points, s.referral_points, s.lifetime_pnl::text as lifetime_pnl, s.reputation,
        u.username, u.display_name, u.profile_image_url,
        (select count(*) from ${standings} x where x.listed and x.${col} > s.${col}) as above,
        0 as total
      from ${standings} s join ${users} u on u.id = s.user_id
      where s.user_id = ${userId} and s.listed`),
  );
  return row;
};

/** lifetimePnL at each daily close since `sinceDay` for the given accounts, oldest first. */
export const loadPnlHistory = async (db: DbOrTx, userIds: readonly string[], sinceDay: string) => {
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
};
