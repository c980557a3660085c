/**
 * System statistics for administrators (GET /api/admin/stats), in two statements whatever the
 * number of days: one of scalar subqueries (users, trading, reports) and one of per-day groups
 * (zero-filled here, oldest day first). Reads only.
 *
 * Definitions (lib/admin/README.md):
 *   - people are users who are neither NPC actors nor pool accounts (a pool's trading account is
 *     not a person): players and agents; `total` = players + agents + actors;
 *   - active = a person (player or agent) who traded (prediction or perpetual), posted or
 *     commented in the window; new and signups count people too;
 *   - a trade is a row of the trade feed (prediction buys and sells; perpetual opens, closes and
 *     liquidations); volume is the gross prediction amount plus the perpetual notional of every
 *     trade, liquidations included (each row holds the notional it moved at its price), as the
 *     tickers' own 24 h volume counts it;
 *   - orders: open orders of both kinds (prediction limit orders open or partly filled, perp orders
 *     open), orders placed in the last 24 h, and the money open orders hold in reserve;
 *   - open interest: the notional of open perpetual positions at the mark (as the tickers show it)
 *     plus the cost basis of prediction shares still held in unsettled markets.
 * Days are UTC calendar days; the windows (24 h, 7 days) end at now() (game time).
 */
import 'server-only';
import { sql } from 'drizzle-orm';
import { getDb, rowsOf } from '@/db/client';
import { comments, marketPositions, markets, perpMarkets, perpOrders, perpPositions, perpTrades, posts, predictionOrders, reports, trades, users } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { dec, toNumber } from '@/lib/money/decimal';

const DAY_MS = 86_400_000;

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** A person (player or agent, not an NPC actor, not a pool account), for a users row aliased `u`. */
const isPerson = sql`not u.is_actor and not u.is_pool_account`;

/** Every act that makes a player active (trade, post, comment) since `since`: (user_id, created_at) rows. */
const actsSince = (since: Date) => sql`
  select user_id, created_at from ${trades} where created_at > ${ts(since)}
  union all select user_id, created_at from ${perpTrades} where created_at > ${ts(since)}
  union all select author_id, created_at from ${posts} where created_at > ${ts(since)}
  union all select author_id, created_at from ${comments} where created_at > ${ts(since)}`;

const num = (v: unknown) => Number(v ?? 0);
const money = (v: unknown) => toNumber(dec(String(v ?? 0)));

/** YYYY-MM-DD of a UTC day. */
const dayKey = (d: Date) => d.toISOString().slice(0, 10);

export async function getAdminStats(input: { caller: TCaller; days: number }) {
  const db = await getDb();
  const at = now();
  const dayAgo = new Date(at.getTime() - DAY_MS);
  const weekAgo = new Date(at.getTime() - 7 * DAY_MS);
  const today = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  const firstDay = new Date(today.getTime() - (input.days - 1) * DAY_MS);

  const [s] = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      with acts as (${actsSince(weekAgo)}),
      active as (
        select count(distinct a.user_id) filter (where a.created_at > ${ts(dayAgo)}) as d1, count(distinct a.user_id) as d7
        from acts a join ${users} u on u.id = a.user_id where ${isPerson}
      )
      select
        (select count(*) from ${users} u where not u.is_pool_account) as total,
        (select count(*) from ${users} u where ${isPerson} and not u.is_agent) as players,
        (select count(*) from ${users} u where u.is_actor and not u.is_pool_account) as actors,
        (select count(*) from ${users} u where ${isPerson} and u.is_agent) as agents,
        (select count(*) from ${users} u where u.is_banned and not u.is_pool_account) as banned,
        (select count(*) from ${users} u where ${isPerson} and u.created_at > ${ts(dayAgo)}) as new24h,
        (select d1 from active) as active24h,
        (select d7 from active) as active7d,
        (select count(*) from ${trades}) + (select count(*) from ${perpTrades}) as trades,
        (select count(*) from ${trades} where created_at > ${ts(dayAgo)})
          + (select count(*) from ${perpTrades} where created_at > ${ts(dayAgo)}) as trades24h,
        (select coalesce(sum(amount), 0) from ${trades}) as pred_volume,
        (select coalesce(sum(size), 0) from ${perpTrades}) as perp_volume,
        (select coalesce(sum(amount), 0) from ${trades} where created_at > ${ts(dayAgo)}) as pred_volume24h,
        (select coalesce(sum(size), 0) from ${perpTrades} where created_at > ${ts(dayAgo)}) as perp_volume24h,
        (select coalesce(sum(trunc(p.units * m.mark_price, 8)), 0) from ${perpPositions} p join ${perpMarkets} m on m.ticker = p.ticker where p.status = 'open') as perp_oi,
        (select coalesce(sum(cost_basis), 0) from ${marketPositions} where shares > 0 and settled_at is null) as pred_oi,
        (select count(*) from ${markets} where status = 'active') as active_markets,
        (select count(*) from ${predictionOrders} where status in ('open', 'partially_filled'))
          + (select count(*) from ${perpOrders} where status = 'open') as open_orders,
        (select count(*) from ${predictionOrders} where created_at > ${ts(dayAgo)})
          + (select count(*) from ${perpOrders} where created_at > ${ts(dayAgo)}) as orders24h,
        (select coalesce(sum(amount - filled_amount), 0) from ${predictionOrders} where status in ('open', 'partially_filled'))
          + (select coalesce(sum(reserved), 0) from ${perpOrders} where status = 'open') as orders_reserved,
        (select count(*) from ${reports}) as reports_total,
        (select count(*) from ${reports} where status = 'pending') as reports_pending,
        (select count(*) from ${reports} where status = 'reviewing') as reports_reviewing,
        (select count(*) from ${reports} where created_at > ${ts(dayAgo)}) as reports24h`),
  );

  // One grouped statement for every per-day series: (series, day, count, volume) rows.
  const day = (col: string) => sql.raw(`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD')`);
  const since = ts(firstDay);
  const perDay = rowsOf<{ k: string; d: string; n: unknown; v: unknown }>(
    await db.execute(sql`
      with acts as (${actsSince(new Date(firstDay.getTime() - 1))})
      select 'signups' as k, ${day('u.created_at')} as d, count(*) as n, 0::numeric as v from ${users} u
        where ${isPerson} and u.created_at >= ${since} group by 2
      union all select 'active', ${day('a.created_at')}, count(distinct a.user_id), 0 from acts a join ${users} u on u.id = a.user_id
        where ${isPerson} group by 2
      union all select 'trades', ${day('created_at')}, count(*), coalesce(sum(amount), 0) from ${trades} where created_at >= ${since} group by 2
      union all select 'trades', ${day('created_at')}, count(*), coalesce(sum(size), 0)
        from ${perpTrades} where created_at >= ${since} group by 2
      union all select 'posts', ${day('created_at')}, count(*), 0 from ${posts} where created_at >= ${since} group by 2
      union all select 'reports', ${day('created_at')}, count(*), 0 from ${reports} where created_at >= ${since} group by 2`),
  );
  const byDay = Array.from({ length: input.days }, (_, i) => ({
    date: dayKey(new Date(firstDay.getTime() + i * DAY_MS)),
    signups: 0,
    activeUsers: 0,
    trades: 0,
    volume: dec(0),
    posts: 0,
    reports: 0,
  }));
  const index = new Map(byDay.map((d, i) => [d.date, i]));
  for (const r of perDay) {
    const d = byDay[index.get(r.d) ?? -1];
    if (!d) continue; // a row dated after today (game time ahead of the rows' clock): outside the series
    if (r.k === 'signups') d.signups += num(r.n);
    else if (r.k === 'active') d.activeUsers += num(r.n);
    else if (r.k === 'posts') d.posts += num(r.n);
    else if (r.k === 'reports') d.reports += num(r.n);
    else if (r.k === 'trades') {
      d.trades += num(r.n);
      d.volume = d.volume.plus(String(r.v ?? 0));
    }
  }

  const perpOi = money(s!.perp_oi);
  const predOi = money(s!.pred_oi);
  return {
    users: {
      total: num(s!.total),
      players: num(s!.players),
      actors: num(s!.actors),
      agents: num(s!.agents),
      banned: num(s!.banned),
      active24h: num(s!.active24h),
      active7d: num(s!.active7d),
      new24h: num(s!.new24h),
    },
    trading: {
      trades: num(s!.trades),
      trades24h: num(s!.trades24h),
      volume: toNumber(dec(String(s!.pred_volume ?? 0)).plus(String(s!.perp_volume ?? 0))),
      volume24h: toNumber(dec(String(s!.pred_volume24h ?? 0)).plus(String(s!.perp_volume24h ?? 0))),
      openInterest: toNumber(dec(String(s!.perp_oi ?? 0)).plus(String(s!.pred_oi ?? 0))),
      perpOpenInterest: perpOi,
      predictionOpenInterest: predOi,
      activeMarkets: num(s!.active_markets),
      openOrders: num(s!.open_orders),
      orders24h: num(s!.orders24h),
      ordersReserved: money(s!.orders_reserved),
    },
    reports: {
      total: num(s!.reports_total),
      pending: num(s!.reports_pending),
      reviewing: num(s!.reports_reviewing),
      last24h: num(s!.reports24h),
    },
    byDay: byDay.map((d) => ({ ...d, volume: toNumber(d.volume) })),
  };
}
