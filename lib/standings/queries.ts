/**
 * Reading the standings read model. A page is a range of the board's partial index
 * (points desc, user id) joined to users by primary key; a rank is 1 + a count of the index's
 * head above a score. Nothing here scans users or their histories.
 */
import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, textArray, type DbOrTx } from '@/db/client';
import { equitySnapshots, standings, users } from '@/db/schema';
import type { TBoard, TPointsType } from './ranking';

const POINTS_COLUMN: Record<TPointsType, string> = { all: 'points', earned: 'earned_points', referral: 'referral_points' };

/** The board's column: each has its partial index (score desc, user id) where listed. */
function columnOf(board: TBoard): SQL {
  return sql.raw(board.metric === 'points' ? POINTS_COLUMN[board.pointsType] : `${board.metric}_${board.period}`);
}

/** The columns every row carries, the board's score among them. */
const ROW_COLUMNS = sql.raw(`s.user_id, s.kind, s.points, s.earned_points, s.referral_points, s.lifetime_pnl::text as lifetime_pnl, s.reputation,
  s.pnl_all::text as pnl_all, s.pnl_day::text as pnl_day, s.pnl_week::text as pnl_week, s.pnl_season::text as pnl_season,
  s.roi_all::text as roi_all, s.roi_day::text as roi_day, s.roi_week::text as roi_week, s.roi_season::text as roi_season,
  s.equity::text as equity, s.pnl_at`);

export type TStandingRow = {
  user_id: string;
  kind: 'user' | 'actor' | 'agent';
  points: number;
  earned_points: number;
  referral_points: number;
  lifetime_pnl: string;
  reputation: number;
  pnl_all: string;
  pnl_day: string;
  pnl_week: string;
  pnl_season: string;
  roi_all: string;
  roi_day: string;
  roi_week: string;
  roi_season: string;
  equity: string;
  pnl_at: Date | string | null;
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
/** Which accounts a board shows: everyone, humans (kind user) or agents (agent accounts and key traders). */
export type TPlayers = 'all' | 'humans' | 'agents';
const playersSql = (players: TPlayers, alias: string) =>
  players === 'all' ? sql`` : sql` and ${sql.raw(alias)}.kind = ${players === 'humans' ? 'user' : 'agent'}`;

export async function loadBoardPage(db: DbOrTx, board: TBoard, limit: number, offset: number, players: TPlayers = 'all') {
  const col = columnOf(board);
  return rowsOf<TStandingRow>(
    await db.execute(sql`
      with keys as (
        select s.user_id, s.${col} as score from ${standings} s where s.listed${playersSql(players, 's')}
        order by s.${col} desc nulls last, s.user_id
        limit ${limit} offset ${offset}
      )
      select ${ROW_COLUMNS},
        u.username, u.display_name, u.profile_image_url,
        (select count(*) from ${standings} x where x.listed${playersSql(players, 'x')} and x.${col} > (select max(score) from keys)) as above
      from keys k join ${standings} s on s.user_id = k.user_id join ${users} u on u.id = k.user_id
      order by k.score desc, k.user_id`),
  );
}

/** How many accounts are ranked (the same on every board). */
export async function countRanked(db: DbOrTx, players: TPlayers = 'all') {
  const [r] = rowsOf<{ n: string }>(await db.execute(sql`select count(*) as n from ${standings} s where s.listed${playersSql(players, 's')}`));
  return Number(r?.n ?? 0);
}

/** One account's row and its rank on the board (absent when not ranked: unknown, banned, a pool). */
export async function loadBoardEntry(db: DbOrTx, board: TBoard, userId: string, players: TPlayers = 'all') {
  const col = columnOf(board);
  const [row] = rowsOf<TStandingRow>(
    await db.execute(sql`
      select ${ROW_COLUMNS},
        u.username, u.display_name, u.profile_image_url,
        (select count(*) from ${standings} x where x.listed${playersSql(players, 'x')} and x.${col} > s.${col}) as above
      from ${standings} s join ${users} u on u.id = s.user_id
      where s.user_id = ${userId} and s.listed${playersSql(players, 's')}`),
  );
  return row;
}

/** The one P&L at each daily close since `sinceDay` for the given accounts, oldest first (the ledger's realized figure on closes before migration 0022). */
export async function loadPnlHistory(db: DbOrTx, userIds: readonly string[], sinceDay: string) {
  const out = new Map<string, number[]>();
  if (userIds.length === 0) return out;
  const rows = rowsOf<{ user_id: string; pnl: string }>(
    await db.execute(sql`
      select user_id, coalesce(pnl, lifetime_pnl)::text as pnl from ${equitySnapshots}
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
