/**
 * Invariants that must hold after any scenario, checked against the database itself (not through
 * the code under test): the ledger chain and the pools' books.
 */
import { sql, type SQL } from 'drizzle-orm';
import { expect } from 'vitest';
import { getDb, rowsOf } from '@/db/client';
import { loadHoldings } from '@/lib/pools/holdings';
import { dec, type TDecimal } from '@/lib/money/decimal';
import { ledgerTypesOf } from '@/lib/ledger/account-numbers';
import { TRADE_TYPES } from '@/lib/users/queries';

const q = async <T>(query: SQL) => rowsOf<T>(await (await getDb()).execute(query));

const idList = (ids: readonly string[]) =>
  sql`array[${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )}]::text[]`;

/**
 * The ledger chain, for the given users (every user when none are given):
 *  - each balance_transactions row: balanceAfter = balanceBefore + amount;
 *  - consecutive rows of a user, by seq: each row's balanceBefore is the previous row's
 *    balanceAfter (the first row starts from 0: balances only ever change through the ledger);
 *  - the user's balance is the newest row's balanceAfter (0 without rows), and never negative.
 */
export const expectLedgerChain = async (userIds?: readonly string[]) => {
  if (userIds && userIds.length === 0) return;
  const only = userIds ? sql`where user_id = any(${idList(userIds)})` : sql``;
  const onlyUsers = userIds ? sql`where u.id = any(${idList(userIds)})` : sql``;
  const broken = await q<{ user_id: string; seq: string; why: string }>(sql`
    select user_id, seq::text as seq,
      case when balance_after <> balance_before + amount then 'after <> before + amount'
           when prev_after is null then 'first row does not start from 0'
           else 'before <> previous after' end as why
    from (
      select user_id, seq, amount, balance_before, balance_after,
        lag(balance_after) over (partition by user_id order by seq) as prev_after
      from balance_transactions ${only}
    ) t
    where balance_after <> balance_before + amount
       or (prev_after is null and balance_before <> 0)
       or (prev_after is not null and balance_before <> prev_after)`);
  expect(broken, 'ledger rows that break the chain').toEqual([]);
  const balances = await q<{ id: string; balance: string; last: string | null }>(sql`
    select u.id, u.virtual_balance::text as balance, last.balance_after::text as last from users u
    left join lateral (select bt.balance_after from balance_transactions bt where bt.user_id = u.id order by bt.seq desc limit 1) last on true
    ${onlyUsers}`);
  const off = balances.filter((b) => !dec(b.balance).eq(b.last ?? '0') || dec(b.balance).isNegative());
  expect(off, "users whose balance is not their newest ledger row's balanceAfter, or negative").toEqual([]);
  if (userIds) expect(balances).toHaveLength(new Set(userIds).size);
  await expectAccountTotals(userIds);
};

/**
 * The kept ledger totals (account_totals, migration 0034) are the ledger's sums, for the given users
 * (every user when none are given): the contribution types' and each product's amounts, and the
 * trades, classified by lib/ledger LEDGER_CLASS and lib/users TRADE_TYPES (not the table the
 * trigger reads, so a wrong class there shows here too). An account without ledger rows has no row.
 */
export const expectAccountTotals = async (userIds?: readonly string[]) => {
  const only = userIds ? sql`where user_id = any(${idList(userIds)})` : sql``;
  const sumOf = (types: readonly string[]) =>
    sql`coalesce(sum(amount) filter (where type in (${sql.join(types.map((t) => sql`${t}`), sql`, `)})), 0)`;
  const off = await q<{ user_id: string; kept: string | null; summed: string | null }>(sql`
    with summed as (
      select user_id, count(*) filter (where type in (${sql.join(TRADE_TYPES.map((t) => sql`${t}`), sql`, `)})) as trades,
        ${sumOf(ledgerTypesOf('contribution'))} as contributions, ${sumOf(ledgerTypesOf('predictions'))} as flow_predictions,
        ${sumOf(ledgerTypesOf('perps'))} as flow_perps, ${sumOf(ledgerTypesOf('pools'))} as flow_pools
      from balance_transactions ${only} group by user_id
    ),
    kept as (select * from account_totals ${only})
    select coalesce(k.user_id, s.user_id) as user_id,
      case when k.user_id is null then null else concat_ws(' ', k.trades, k.contributions, k.flow_predictions, k.flow_perps, k.flow_pools) end as kept,
      case when s.user_id is null then null else concat_ws(' ', s.trades, s.contributions, s.flow_predictions, s.flow_perps, s.flow_pools) end as summed
    from kept k full join summed s on s.user_id = k.user_id
    where k.user_id is null or s.user_id is null or (k.trades, k.contributions, k.flow_predictions, k.flow_perps, k.flow_pools)
      is distinct from (s.trades, s.contributions, s.flow_predictions, s.flow_perps, s.flow_pools)`);
  expect(off, "accounts whose kept ledger totals (trades, contributions, flows) are not their ledger's sums").toEqual([]);
};

/** The sum of these users' balances. */
export const totalBalance = async (userIds: readonly string[]): Promise<TDecimal> => {
  const [r] = await q<{ s: string | null }>(sql`select sum(virtual_balance)::text as s from users where id = any(${idList(userIds)})`);
  return dec(r?.s ?? '0');
};

/**
 * A pool's NAV recomputed here from the raw rows: cash + each open perp's equity (never below 0;
 * its collateral less the funding accrued since it opened: ±units × (funding index − entry index),
 * truncated to 8 places) + each live prediction holding at its side's price.
 */
export const navFromRows = async (poolId: string): Promise<TDecimal> => {
  const [r] = await q<{ cash: string; perps: string; preds: string }>(sql`
    select u.virtual_balance::text as cash,
      coalesce((select sum(greatest(0, pp.collateral
          - (case when pp.side = 'long' then 1 else -1 end) * trunc(pp.units * (m.funding_index - pp.funding_index_entry), 8)
          + pp.units * (m.mark_price - pp.entry_price) * case when pp.side = 'long' then 1 else -1 end))
        from perp_positions pp join perp_markets m on m.ticker = pp.ticker
        where pp.user_id = p.account_user_id and pp.status = 'open'), 0)::text as perps,
      coalesce((select sum(mp.shares * case when mp.side = 'YES' then mk.yes_shares / (mk.yes_shares + mk.no_shares) else mk.no_shares / (mk.yes_shares + mk.no_shares) end)
        from market_positions mp join markets mk on mk.id = mp.market_id
        where mp.user_id = p.account_user_id and mp.shares > 0 and mp.settled_at is null and mk.status = 'active'), 0)::text as preds
    from pools p join users u on u.id = p.account_user_id where p.id = ${poolId}`);
  if (!r) throw new Error(`no pool ${poolId}`);
  return dec(r.cash).plus(r.perps).plus(r.preds);
};

/**
 * The books of the given pools (every pool when none are given):
 *  - totalShares = the sum of its lots' remaining shares; no lot negative; an emptied lot has no cost left;
 *  - netDeposits = what its lots paid in − the gross value of its withdrawals;
 *  - the pool account's pool_deposit credits = the lots' amounts; its pool_withdraw debits = the withdrawals' values;
 *  - the manager's pool_performance_fee credits from the pool = the withdrawals' fees;
 *  - the NAV the service computes (lib/pools/holdings) = the NAV recomputed from the rows here (to rounding).
 */
export const expectPoolBooks = async (poolIds?: readonly string[]) => {
  const only = poolIds ? sql`where p.id = any(${idList(poolIds)})` : sql``;
  const rows = await q<{
    id: string;
    account_user_id: string;
    total_shares: string;
    lot_shares: string;
    net_deposits: string;
    paid_in: string;
    paid_out: string;
    fees: string;
    ledger_in: string;
    ledger_out: string;
    ledger_fees: string;
    bad_lots: string;
  }>(sql`
    select p.id, p.account_user_id, p.total_shares::text, p.net_deposits::text,
      coalesce((select sum(d.remaining_shares) from pool_deposits d where d.pool_id = p.id), 0)::text as lot_shares,
      coalesce((select sum(d.amount) from pool_deposits d where d.pool_id = p.id), 0)::text as paid_in,
      coalesce((select sum(w.value) from pool_withdrawals w where w.pool_id = p.id), 0)::text as paid_out,
      coalesce((select sum(w.performance_fee) from pool_withdrawals w where w.pool_id = p.id), 0)::text as fees,
      coalesce((select sum(t.amount) from balance_transactions t where t.user_id = p.account_user_id and t.type = 'pool_deposit'), 0)::text as ledger_in,
      coalesce((select -sum(t.amount) from balance_transactions t where t.user_id = p.account_user_id and t.type = 'pool_withdraw'), 0)::text as ledger_out,
      coalesce((select sum(t.amount) from balance_transactions t
        where t.user_id = p.npc_actor_id and t.type = 'pool_performance_fee' and t.reference_id = p.id), 0)::text as ledger_fees,
      (select count(*) from pool_deposits d where d.pool_id = p.id
        and (d.remaining_shares < 0 or d.cost_basis < 0 or d.remaining_shares > d.shares or (d.remaining_shares = 0 and d.cost_basis <> 0)))::text as bad_lots
    from pools p ${only} order by p.id`);
  if (poolIds) expect(rows).toHaveLength(new Set(poolIds).size);
  for (const r of rows) {
    expect(dec(r.total_shares).toFixed(), `pool ${r.id}: totalShares = the lots' remaining shares`).toBe(dec(r.lot_shares).toFixed());
    expect(Number(r.bad_lots), `pool ${r.id}: lots out of shape`).toBe(0);
    expect(dec(r.net_deposits).toFixed(), `pool ${r.id}: netDeposits`).toBe(dec(r.paid_in).minus(r.paid_out).toFixed());
    expect(dec(r.ledger_in).toFixed(), `pool ${r.id}: pool_deposit credits`).toBe(dec(r.paid_in).toFixed());
    expect(dec(r.ledger_out).toFixed(), `pool ${r.id}: pool_withdraw debits`).toBe(dec(r.paid_out).toFixed());
    expect(dec(r.ledger_fees).toFixed(), `pool ${r.id}: performance fees`).toBe(dec(r.fees).toFixed());
  }
  const holdings = await loadHoldings(
    await getDb(),
    rows.map((r) => r.account_user_id),
  );
  for (const r of rows) {
    const nav = holdings.get(r.account_user_id)!.nav;
    const raw = await navFromRows(r.id);
    // The service rounds each perp's PnL and each holding's value to 8 places: a hair per position.
    expect(nav.minus(raw).abs().toNumber(), `pool ${r.id}: NAV ${nav.toFixed()} vs ${raw.toFixed()} from the rows`).toBeLessThan(1e-6);
  }
  return rows.map((r) => r.id);
};

/**
 * The points chain, for the given users (every user when none are given), as the money ledger's:
 * each points_transactions row has pointsAfter = pointsBefore + amount and never below zero;
 * consecutive rows chain (the first starts from 0); the user's points equal the newest row's
 * pointsAfter (0 without rows).
 */
export const expectPointsChain = async (userIds?: readonly string[]) => {
  if (userIds && userIds.length === 0) return;
  const only = userIds ? sql`where user_id = any(${idList(userIds)})` : sql``;
  const onlyUsers = userIds ? sql`where u.id = any(${idList(userIds)})` : sql``;
  const broken = await q<{ user_id: string; seq: string }>(sql`
    select user_id, seq::text as seq from (
      select user_id, seq, amount, points_before, points_after,
        lag(points_after) over (partition by user_id order by seq) as prev_after
      from points_transactions ${only}
    ) t
    where points_after <> points_before + amount or points_after < 0
       or (prev_after is null and points_before <> 0)
       or (prev_after is not null and points_before <> prev_after)`);
  expect(broken, 'points rows that break the chain').toEqual([]);
  const off = await q<{ id: string; points: number; last: number | null }>(sql`
    select u.id, u.reputation_points as points, last.points_after as last from users u
    left join lateral (select pt.points_after from points_transactions pt where pt.user_id = u.id order by pt.seq desc limit 1) last on true
    ${onlyUsers}`);
  expect(
    off.filter((r) => Number(r.points) !== Number(r.last ?? 0) || Number(r.points) < 0),
    "users whose points are not their newest points row's pointsAfter",
  ).toEqual([]);
};

/**
 * The perps tickers' kept statistics (migration 0032) against the rows they summarise: each
 * ticker's open units per side equal the units of its open positions, and each hour row of
 * perp_volume_hours equals its ticker's trades in that UTC hour (from the oldest hour kept: the
 * tick prunes older ones), with no trade hour missing a row. Returns how many open positions and
 * hour rows were compared, so a caller can assert the check was not between empty tables.
 */
export const expectPerpTickerCounters = async () => {
  const units = await q<{ ticker: string; kept_long: string; kept_short: string; long: string; short: string }>(sql`
    select m.ticker, m.open_units_long::text as kept_long, m.open_units_short::text as kept_short,
      coalesce(s.long, 0)::text as long, coalesce(s.short, 0)::text as short
    from perp_markets m left join (
      select ticker, sum(units) filter (where side = 'long') as long, sum(units) filter (where side = 'short') as short
      from perp_positions where status = 'open' group by ticker
    ) s on s.ticker = m.ticker
    where m.open_units_long <> coalesce(s.long, 0) or m.open_units_short <> coalesce(s.short, 0)`);
  expect(units, "tickers whose kept open units are not their open positions' units").toEqual([]);
  const hours = await q<{ ticker: string; hour: string; kept: string | null; traded: string | null }>(sql`
    with kept as (select * from perp_volume_hours),
    traded as (
      select ticker, date_trunc('hour', created_at, 'UTC') as hour, sum(size) as amount from perp_trades
      where created_at >= coalesce((select min(hour) from kept), '-infinity'::timestamptz) group by 1, 2
    )
    select coalesce(k.ticker, t.ticker) as ticker, coalesce(k.hour, t.hour)::text as hour, k.amount::text as kept, t.amount::text as traded
    from kept k full join traded t on t.ticker = k.ticker and t.hour = k.hour
    where k.amount is distinct from t.amount`);
  expect(hours, "hour rows that are not their ticker's trades in that hour").toEqual([]);
  const [n] = await q<{ positions: number; hours: number }>(sql`
    select (select count(*) from perp_positions where status = 'open')::int as positions, (select count(*) from perp_volume_hours)::int as hours`);
  return { openPositions: Number(n!.positions), hourRows: Number(n!.hours) };
};
