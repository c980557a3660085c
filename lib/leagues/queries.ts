/**
 * League I/O: the daily equity snapshot (one set statement for every ranked account), members,
 * their snapshots and trade counts in a season.
 */
import 'server-only';
import { sql } from 'drizzle-orm';
import { rowsOf, textArray, type DbOrTx } from '@/db/client';
import {
  balanceTransactions,
  equitySnapshots,
  leagueMembers,
  leagueSeasons,
  perpTrades,
  poolDeposits,
  standings,
  trades,
  users,
} from '@/db/schema';
import { closeNumbersSql } from '@/lib/equity/sql';
import { CONTRIBUTION_TYPES } from '@/lib/ledger/account-numbers';

/** Money that comes in or goes out otherwise than by trading: not part of a return (lib/equity's contributions). */
export const FLOW_TYPES = CONTRIBUTION_TYPES;

/**
 * Records the close of `day` for every ranked account that has none: equity and P&L by lib/equity's
 * one definition (cash + open prediction shares at the price + open perps at their mark, with the
 * funding accrued, never below zero each + pool shares at the pool's share price; P&L = equity −
 * contributions so far, and by product: lib/equity closeNumbersSql), and the flows since the account's
 * previous snapshot. Idempotent.
 */
export async function insertDailySnapshots(db: DbOrTx, day: string, at: Date, opts: { newPlayersSince?: Date } = {}) {
  return (await insertSnapshotsBatch(db, day, at, opts)).inserted;
}

/**
 * As insertDailySnapshots, for at most `limit` listed accounts after `afterUserId` in id order
 * (the standings' primary key): a batch of the daily close, so that the close of 100,000 accounts
 * is spread over the day's first ticks rather than one statement. Returns the accounts snapshotted,
 * the last account of the batch (the next batch's cursor) and how many accounts the batch read.
 */
export async function insertSnapshotsBatch(
  db: DbOrTx,
  day: string,
  at: Date,
  opts: { newPlayersSince?: Date; afterUserId?: string | null; limit?: number } = {},
) {
  const ts = sql`${at.toISOString()}::timestamptz`;
  // Between daily closes, only players first ranked lately are looked at: their first close, so
  // they are seated the same minute rather than at midnight.
  const only = opts.newPlayersSince
    ? sql`and s.kind in ('user', 'agent') and s.created_at > ${opts.newPlayersSince.toISOString()}::timestamptz`
    : sql``;
  const flowTypes = sql.join(FLOW_TYPES.map((t) => sql`${t}`), sql`, `);
  const after = opts.afterUserId ? sql`and s.user_id > ${opts.afterUserId}` : sql``;
  const limit = opts.limit ? sql`order by s.user_id limit ${opts.limit}` : sql``;
  const [r] = rowsOf<{ ids: string[] | string | null; last: string | null; n: number | string }>(
    await db.execute(sql`
      with batch as (select s.user_id from ${standings} s where s.listed ${only} ${after} ${limit}),
      ins as (
      insert into ${equitySnapshots} (user_id, day, equity, flows, lifetime_pnl, pnl, pnl_predictions, pnl_perps, pnl_pools, created_at)
      select u.id, ${day}::date,
        e.equity,
        coalesce((select sum(bt.amount) from ${balanceTransactions} bt
                  where bt.user_id = u.id and bt.type in (${flowTypes}) and bt.created_at <= ${ts}
                    and bt.created_at > prev.created_at), 0),
        u.lifetime_pnl, e.pnl, e.pnl_predictions, e.pnl_perps, e.pnl_pools, ${ts}
      from batch s
      join ${users} u on u.id = s.user_id
      cross join lateral (${closeNumbersSql('u', ts)}) e
      left join lateral (
        select es.created_at from ${equitySnapshots} es where es.user_id = u.id order by es.day desc limit 1
      ) prev on true
      where not exists (select 1 from ${equitySnapshots} x where x.user_id = u.id and x.day = ${day}::date)
      on conflict (user_id, day) do nothing
      returning user_id
      )
      select (select array_agg(user_id order by user_id) from ins) as ids, (select max(user_id) from batch) as last, (select count(*) from batch) as n`),
  );
  const ids = Array.isArray(r?.ids) ? r.ids.map(String) : typeof r?.ids === 'string' ? r.ids.replace(/^\{|\}$/g, '').split(',').filter(Boolean) : [];
  return { inserted: ids, last: r?.last ?? null, read: Number(r?.n ?? 0) };
}

/** Whether the close of `day` was recorded (the full close is one statement: all or nothing). */
export async function hasDailyClose(db: DbOrTx, day: string) {
  const [r] = rowsOf<{ done: boolean }>(await db.execute(sql`select exists (select 1 from ${equitySnapshots} where day = ${day}::date) as done`));
  return Boolean(r?.done);
}

export type TMemberRow = {
  user_id: string;
  tier: number;
  division: number;
  start_equity: string;
  rank: number | null;
  score: string | null;
  season_return: string | null;
  volatility: string | null;
  trades: number | null;
  days: number | null;
  qualified: boolean | null;
  outcome: 'promoted' | 'relegated' | 'stayed' | null;
  username: string;
  display_name: string;
  profile_image_url: string | null;
  is_actor: boolean;
  is_agent: boolean;
  /** Traded through an API key (lib/api-keys): shown as a bot. */
  is_bot: boolean;
};

export async function loadMembers(db: DbOrTx, seasonId: string, where?: { tier: number; division: number } | { divisions: readonly { tier: number; division: number }[] }) {
  if (where && 'divisions' in where && where.divisions.length === 0) return [];
  // A list of divisions (the season's close, batch by batch): a member without a division counts in division 1.
  const filter = !where
    ? sql``
    : 'divisions' in where
      ? sql`and (m.tier, coalesce(m.division, 1)) in (${sql.join(
          where.divisions.map((d) => sql`(${d.tier}::int, ${d.division}::int)`),
          sql`, `,
        )})`
      : sql`and m.tier = ${where.tier} and m.division = ${where.division}`;
  return rowsOf<TMemberRow>(
    await db.execute(sql`
      select m.user_id, m.tier, m.division, m.start_equity::text as start_equity, m.rank, m.score::text as score,
        m.season_return::text as season_return, m.volatility::text as volatility, m.trades, m.days, m.qualified, m.outcome,
        u.username, u.display_name, u.profile_image_url, u.is_actor, u.is_agent, (u.is_agent or u.bot_since is not null) as is_bot
      from ${leagueMembers} m join ${users} u on u.id = m.user_id
      where m.season_id = ${seasonId} ${filter}`),
  );
}

/** Each member's daily closes from the eve of the season to its last day, oldest first. */
export async function loadSeasonSnapshots(db: DbOrTx, userIds: readonly string[], fromDay: string, toDay: string) {
  const out = new Map<string, { equity: string; flows: string }[]>();
  if (userIds.length === 0) return out;
  const rows = rowsOf<{ user_id: string; equity: string; flows: string }>(
    await db.execute(sql`
      select user_id, equity::text as equity, flows::text as flows from ${equitySnapshots}
      where user_id = any(${textArray(userIds)}) and day >= ${fromDay}::date and day <= ${toDay}::date
      order by user_id, day`),
  );
  for (const r of rows) {
    const list = out.get(r.user_id) ?? [];
    list.push({ equity: r.equity, flows: r.flows });
    out.set(r.user_id, list);
  }
  return out;
}

/** Trades each member made in [from, to): prediction buys and sales, perp opens and closes, pool deposits. */
export async function loadSeasonTradeCounts(db: DbOrTx, userIds: readonly string[], from: Date, to: Date) {
  const out = new Map<string, number>();
  if (userIds.length === 0) return out;
  const ids = textArray(userIds);
  const range = (col: string) => sql`${sql.raw(col)} >= ${from.toISOString()}::timestamptz and ${sql.raw(col)} < ${to.toISOString()}::timestamptz`;
  const rows = rowsOf<{ user_id: string; n: string }>(
    await db.execute(sql`
      select user_id, count(*) as n from (
        select user_id from ${trades} where user_id = any(${ids}) and ${range('created_at')}
        union all select user_id from ${perpTrades} where user_id = any(${ids}) and action <> 'liquidation' and ${range('created_at')}
        union all select user_id from ${poolDeposits} where user_id = any(${ids}) and not is_seed and ${range('created_at')}
      ) t group by user_id`),
  );
  for (const r of rows) out.set(r.user_id, Number(r.n));
  return out;
}

export type TSeasonRow = { id: string; starts_at: string | Date; ends_at: string | Date; status: 'open' | 'closed'; members: string };

export async function loadSeasons(db: DbOrTx, limit: number) {
  return rowsOf<TSeasonRow>(
    await db.execute(sql`
      select s.id, s.starts_at, s.ends_at, s.status, (select count(*) from ${leagueMembers} m where m.season_id = s.id) as members
      from ${leagueSeasons} s order by s.starts_at desc limit ${limit}`),
  );
}

export async function loadSeason(db: DbOrTx, id: string) {
  return rowsOf<TSeasonRow>(
    await db.execute(sql`
      select s.id, s.starts_at, s.ends_at, s.status, (select count(*) from ${leagueMembers} m where m.season_id = s.id) as members
      from ${leagueSeasons} s where s.id = ${id}`),
  )[0];
}
