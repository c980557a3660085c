/**
 * The one definition of equity and P&L in SQL (README), for every reader that needs it inside a
 * statement: one account (the portfolio, wallet, profile, A2A), many (leaderboards, admin), and
 * the leagues' daily close. lib/ledger/account-numbers.ts is its pure twin (and classifies the
 * ledger's types); equity.int.test.ts holds them together.
 */
import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import { accountTotals, balanceTransactions, marketPositions, markets, perpMarkets, perpOrders, perpPositions, poolDeposits, pools, predictionOrders, users } from '@/db/schema';
import { positionValueSql } from '@/lib/markets/sql';
import { fundedCollateralSql } from '@/lib/perps/service/sql';
import { ledgerTypesOf, PRODUCTS, type TLedgerClass } from '@/lib/ledger/account-numbers';

/** The ledger types that are not a trading result (README: contributions), for readers of this file. */
export { CONTRIBUTION_TYPES } from '@/lib/ledger/account-numbers';

/** Money scale: each product's value is rounded once to it, so the sums below are exact. */
const MONEY = sql.raw('8');

/** The alias goes into the SQL text as it is: only a plain identifier is accepted. */
function aliasOf(u: string): SQL {
  if (!/^[a-z_][a-z0-9_]*$/i.test(u)) throw new Error(`equity/sql: not an alias: ${u}`);
  return sql.raw(u);
}

function typeList(cls: TLedgerClass): SQL {
  return sql.join(
    ledgerTypesOf(cls).map((t) => sql`${t}`),
    sql`, `,
  );
}

/** What the open limit orders of the account `u` hold (their unfilled reserve), to the money scale. */
export function predictionOrdersReservedSql(u: string): SQL {
  return sql`coalesce((select sum(po.amount - po.filled_amount) from ${predictionOrders} po
    where po.user_id = ${aliasOf(u)}.id and po.status in ('open', 'partially_filled')), 0)`;
}

/** What the open perp orders of the account `u` hold (a limit order's margin and fee). */
export function perpOrdersReservedSql(u: string): SQL {
  return sql`coalesce((select sum(po.reserved) from ${perpOrders} po where po.user_id = ${aliasOf(u)}.id and po.status = 'open'), 0)`;
}

/**
 * Open prediction shares at the pool's price (active markets: a resolved one has paid out), plus
 * the open limit orders' reserve (money still in the product, at what it is).
 */
export function predictionsValueSql(u: string): SQL {
  const a = aliasOf(u);
  return sql`(coalesce((select round(sum(${positionValueSql('mk', sql`mp.shares`, sql`mp.side`)}), ${MONEY})
    from ${marketPositions} mp join ${markets} mk on mk.id = mp.market_id
    where mp.user_id = ${a}.id and mp.shares > 0 and mp.settled_at is null and mk.status = 'active'), 0) + ${predictionOrdersReservedSql(u)})`;
}

/**
 * Open perps at their mark: collateral with the funding accrued + price P&L, never below zero
 * each, plus what open perp orders hold.
 */
export function perpsValueSql(u: string): SQL {
  const a = aliasOf(u);
  return sql`(coalesce((select round(sum(greatest(0, ${fundedCollateralSql('p', sql`m.funding_index`)} + p.units * (m.mark_price - p.entry_price) * case when p.side = 'long' then 1 else -1 end)), ${MONEY})
    from ${perpPositions} p join ${perpMarkets} m on m.ticker = p.ticker
    where p.user_id = ${a}.id and p.status = 'open'), 0) + ${perpOrdersReservedSql(u)})`;
}

/**
 * A pool's NAV now, as lib/pools navOf values it (its account's cash + its perps at the mark, each
 * never below zero + its prediction shares at the price, floored to the money scale): `pa` aliases
 * the pool's account row.
 */
export function poolNavSql(pa: string): SQL {
  return sql`trunc(${aliasOf(pa)}.virtual_balance + ${predictionsValueSql(pa)} + ${perpsValueSql(pa)}, ${MONEY})`;
}

/** Pool shares at the pool's share price now (NAV over its shares), as the pools' own answers value a stake. */
export function poolsValueSql(u: string): SQL {
  const a = aliasOf(u);
  return sql`coalesce((select round(sum(d.remaining_shares * ${poolNavSql('pa')} / nullif(pl.total_shares, 0)), ${MONEY})
    from ${poolDeposits} d join ${pools} pl on pl.id = d.pool_id join ${users} pa on pa.id = pl.account_user_id
    where d.user_id = ${a}.id and d.remaining_shares > 0), 0)`;
}

/** Equity of the `users` row aliased `u`: cash + every product's open value, to the money scale. */
export function equitySql(u: string): SQL {
  return sql`(${aliasOf(u)}.virtual_balance + ${predictionsValueSql(u)} + ${perpsValueSql(u)} + ${poolsValueSql(u)})`;
}

/** Σ the contribution ledger types of the account `u` (optionally only rows after/until a time). */
export function contributionsSql(u: string, window: { after?: SQL; until?: SQL } = {}): SQL {
  const a = aliasOf(u);
  const after = window.after ? sql` and bt.created_at > ${window.after}` : sql``;
  const until = window.until ? sql` and bt.created_at <= ${window.until}` : sql``;
  return sql`coalesce((select sum(bt.amount) from ${balanceTransactions} bt
    where bt.user_id = ${a}.id and bt.type in (${typeList('contribution')})${after}${until}), 0)`;
}

/**
 * One row per account that `ids` yields (a FROM item of user ids: `unnest(${textArray(list)})`, or a parenthesised subquery),
 * unknown ids left out. Columns (numeric): user_id, cash, predictions_value, perps_value,
 * pools_value, equity, contributions, predictions_cost, perps_cost, pools_cost, flow_predictions,
 * flow_perps, flow_pools (Σ each product's ledger amounts), pnl_predictions, pnl_perps, pnl_pools, pnl_total. The ledger's
 * sums are the account's kept totals (account_totals, migration 0034: one row, however long the
 * history); the values read the account's open positions.
 */
export function accountNumbersSql(ids: SQL): SQL {
  return sql`
    select n.user_id, n.cash, n.predictions_value, n.perps_value, n.pools_value,
      n.cash + n.predictions_value + n.perps_value + n.pools_value as equity,
      n.contributions, n.predictions_cost, n.perps_cost, n.pools_cost,
      n.flow_predictions, n.flow_perps, n.flow_pools,
      n.flow_predictions + n.predictions_value as pnl_predictions,
      n.flow_perps + n.perps_value as pnl_perps,
      n.flow_pools + n.pools_value as pnl_pools,
      n.cash + n.predictions_value + n.perps_value + n.pools_value - n.contributions as pnl_total
    from (
      select u.id as user_id, u.virtual_balance as cash,
        ${predictionsValueSql('u')} as predictions_value,
        ${perpsValueSql('u')} as perps_value,
        ${poolsValueSql('u')} as pools_value,
        coalesce((select sum(mp.cost_basis) from ${marketPositions} mp join ${markets} mk on mk.id = mp.market_id
                  where mp.user_id = u.id and mp.shares > 0 and mp.settled_at is null and mk.status = 'active'), 0)
          + ${predictionOrdersReservedSql('u')} as predictions_cost,
        coalesce((select sum(p.margin) from ${perpPositions} p where p.user_id = u.id and p.status = 'open'), 0)
          + ${perpOrdersReservedSql('u')} as perps_cost,
        coalesce((select sum(d.cost_basis) from ${poolDeposits} d where d.user_id = u.id and d.remaining_shares > 0), 0) as pools_cost,
        coalesce(f.contributions, 0) as contributions,
        coalesce(f.flow_predictions, 0) as flow_predictions,
        coalesce(f.flow_perps, 0) as flow_perps,
        coalesce(f.flow_pools, 0) as flow_pools
      from ${ids} as ids(user_id)
      join ${users} u on u.id = ids.user_id
      left join ${accountTotals} f on f.user_id = u.id
      -- A fence: the outer columns use each value several times; without it PostgreSQL pulls the
      -- subquery up and runs every correlated subquery once per use (and JIT-compiles them all).
      offset 0
    ) n`;
}

/**
 * A daily close of the account `u` (a lateral subquery: one row): its equity now, and its P&L in
 * total and by product with the ledger rows until `until` (the close's moment). The same numbers
 * as `equitySql`, `contributionsSql` and `accountNumbersSql`: pnl = equity − contributions;
 * pnl_<product> = Σ the product's ledger amounts + its open value; the ledger's chain makes
 * Σ products = pnl. One pass over the account's ledger rows (its index).
 */
export function closeNumbersSql(u: string, until: SQL): SQL {
  const a = aliasOf(u);
  const flows = sql.join(
    PRODUCTS.map((p) => sql`coalesce(sum(bt.amount) filter (where bt.type in (${typeList(p)})), 0) as ${sql.raw(`flow_${p}`)}`),
    sql`, `,
  );
  return sql`
    select v.cash + v.predictions_value + v.perps_value + v.pools_value as equity,
      v.cash + v.predictions_value + v.perps_value + v.pools_value - f.contributions as pnl,
      f.flow_predictions + v.predictions_value as pnl_predictions,
      f.flow_perps + v.perps_value as pnl_perps,
      f.flow_pools + v.pools_value as pnl_pools
    from (
      select ${a}.virtual_balance as cash, ${predictionsValueSql(u)} as predictions_value, ${perpsValueSql(u)} as perps_value,
        ${poolsValueSql(u)} as pools_value
      offset 0
    ) v
    cross join (
      select coalesce(sum(bt.amount) filter (where bt.type in (${typeList('contribution')})), 0) as contributions, ${flows}
      from ${balanceTransactions} bt where bt.user_id = ${a}.id and bt.created_at <= ${until}
    ) f`;
}
