/**
 * The prices of cpmm.ts and dto.ts `marketPrices` written in SQL, for every folder that prices
 * questions or holdings inside a statement (the buy, the tick's price points, pools' holdings,
 * leagues' equity, the world's actor stats, the price-move alerts, the self-dealing detector).
 *
 * The reserve inversion, said once: the columns `markets.yes_shares` / `no_shares` hold the
 * specification's public weights, so `yes_shares` is the pool's NO reserve (cpmm.ts, README "The
 * names are weights, not reserves"), and the YES price is yes_shares / (yes_shares + no_shares).
 *
 * Each function takes the alias of a row with `yes_shares` and `no_shares` (a `markets` row, or a
 * CTE returning those columns). The division is PostgreSQL's own (no cast), as every caller wrote
 * it before: its result keeps at least 16 significant digits, rounded at the last one, and
 * callers that store a price truncate it to 18 places. price-sql.int.test.ts holds each fragment
 * to the pure functions.
 */
import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import { marketVolumeHours, trades } from '@/db/schema';
import { SHARE_SCALE } from './cpmm';

/** The alias goes into the SQL text as it is: only a plain identifier is accepted. */
function aliasOf(m: string): SQL {
  if (!/^[a-z_][a-z0-9_]*$/i.test(m)) throw new Error(`markets/sql: not an alias: ${m}`);
  return sql.raw(m);
}

/** yes_shares + no_shares: the sum of the two weights (the price's denominator). */
function weightsSql(m: string): SQL {
  const a = aliasOf(m);
  return sql`(${a}.yes_shares + ${a}.no_shares)`;
}

/** The YES price of an active pool: yes_shares / (yes_shares + no_shares) (cpmm `prices().yes`). */
export function yesPriceSql(m: string): SQL {
  return sql`(${aliasOf(m)}.yes_shares / ${weightsSql(m)})`;
}

/** The NO price: 1 − the YES price (cpmm `prices().no`). */
export function noPriceSql(m: string): SQL {
  return sql`(1 - ${yesPriceSql(m)})`;
}

/** The YES price as a trade's `yes_price_after` and a price point store it: truncated to 18 places. */
export function storedYesPriceSql(m: string): SQL {
  return sql`trunc(${yesPriceSql(m)}, ${sql.raw(String(SHARE_SCALE))})`;
}

/**
 * The YES price as dto.ts `marketPrices` gives it: the outcome (1 or 0) once resolved, else the
 * pool's price (null rather than an error for a pool without weights). `m` is a `markets` row.
 */
export function marketYesPriceSql(m: string): SQL {
  const a = aliasOf(m);
  return sql`(case when ${a}.status = 'resolved' and ${a}.resolved_outcome is not null
  then (case when ${a}.resolved_outcome = 'YES' then 1 else 0 end)::numeric
  else ${a}.yes_shares / nullif(${weightsSql(m)}, 0) end)`;
}

/**
 * What `shares` of `side` ('YES' or 'NO') are worth at the pool's price: shares × the side's
 * weight / (yes_shares + no_shares), multiplied before dividing (so one division rounds), which
 * is shares × cpmm `priceOf(pool, side)`.
 */
export function positionValueSql(m: string, shares: SQL, side: SQL): SQL {
  const a = aliasOf(m);
  return sql`(${shares} * (case when ${side} = 'YES' then ${a}.yes_shares else ${a}.no_shares end) / ${weightsSql(m)})`;
}

/**
 * A market's traded amount since `since` (trades.amount with created_at > since), as the sum of
 * trades it equals: the whole UTC hours after the window's first one from market_volume_hours
 * (migration 0031, kept by a trigger on trades), and the rest of that first hour from trades. So
 * the read costs at most an hour of the market's trades and 25 hour rows, not the day's trades.
 * `marketId` is an SQL expression (a column of the outer query); `since` a timestamptz expression.
 */
export function volume24hSql(since: SQL, marketId: SQL): SQL<string> {
  const firstWholeHour = sql`(date_trunc('hour', ${since}, 'UTC') + interval '1 hour')`;
  return sql<string>`(coalesce((select sum(h.amount) from ${marketVolumeHours} h
        where h.market_id = ${marketId} and h.hour >= ${firstWholeHour}), 0)
      + coalesce((select sum(t.amount) from ${trades} t
        where t.market_id = ${marketId} and t.created_at > ${since} and t.created_at < ${firstWholeHour}), 0))`;
}
