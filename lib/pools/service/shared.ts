/**
 * What the pool operations share: the pool's row lock (every change of a pool's shares or cash
 * by this domain holds it, so deposits, withdrawals and the manager's trades on one pool run one
 * at a time and each sees an exact NAV), NAV points and the pool_update event.
 */
import 'server-only';
import { and, asc, eq, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '@/db/client';
import { marketPositions, markets, perpMarkets, perpPositions, poolNavPoints, pools, users, type TPoolRow } from '@/db/schema';
import { yesPriceSql } from '@/lib/markets/sql';
import { fundedCollateralSql, pricePnLSql } from '@/lib/perps/service/sql';
import type { TCaller } from '@/lib/auth/caller';
import { outboxCtes, outboxNotified } from '@/lib/events/outbox';
import { AppError } from '@/lib/errors/app-error';
import { dec, toDecimalString, toNumber, type TDecimal } from '@/lib/money/decimal';
import { INITIAL_SHARE_PRICE, MONEY_SCALE, sharePriceOf, SHARE_SCALE } from '../math';

/** Locks a pool's row for the rest of the transaction; NOT_FOUND when there is no such pool. */
export async function lockPool(tx: Tx, poolId: string): Promise<TPoolRow> {
  const [pool] = await tx.select().from(pools).where(eq(pools.id, poolId)).for('update');
  if (!pool) throw new AppError('NOT_FOUND', 'Pool not found', { poolId });
  return pool;
}

/** The pool's own account as the caller of the trading services (never an admin, no referrer). */
export function poolAccountCaller(pool: Pick<TPoolRow, 'accountUserId' | 'id'>): TCaller {
  return {
  userId: pool.accountUserId,
  username: `pool:${pool.id}`,
  isAdmin: false,
  isModerator: false,
  isAgent: false,
  referredById: null,
};
}

export type TNavSnapshot = {
  poolId: string;
  nav: TDecimal;
  totalShares: TDecimal;
  /**
   * A deposit's amount (positive) or a withdrawal's value (negative): the pool row then also takes
   * `totalShares` as its share count and this change of its net deposits, in the same statement.
   */
  flow?: TDecimal;
};

/**
 * Stores the pools' NAV (a point each for the chart, and the pool row's last-known value, with
 * its share count and net deposits when the snapshot carries a flow) and announces it on
 * `markets` as pool_update, in the caller's transaction: ONE statement (the point, the pool row,
 * the outbox row and its NOTIFY as CTEs), as a deposit or withdrawal pays a round trip and a parse
 * per statement while it holds the pool's lock.
 */
export async function recordNav(db: DbOrTx, snapshots: readonly TNavSnapshot[], source: 'seed' | 'tick' | 'deposit' | 'withdraw' | 'trade', at: Date) {
  if (snapshots.length === 0) return;
  const rows = snapshots.map((s) => {
    const price = sharePriceOf({ nav: s.nav, totalShares: s.totalShares }).toDecimalPlaces(SHARE_SCALE, 1);
    return { s, price };
  });
  const ts = at.toISOString();
  const points = sql.join(
    rows.map(
      ({ s, price }) =>
        sql`(${crypto.randomUUID()}, ${s.poolId}, ${toDecimalString(s.nav)}::numeric, ${toDecimalString(s.totalShares)}::numeric, ${toDecimalString(price)}::numeric, ${source}, ${ts}::timestamptz)`,
    ),
    sql`, `,
  );
  // shares: the new share count when the snapshot carries a flow, else null (the row keeps its own).
  const values = sql.join(
    rows.map(
      ({ s }) =>
        sql`(${s.poolId}, ${toDecimalString(s.nav)}::numeric, ${s.flow ? toDecimalString(s.totalShares) : null}::numeric, ${toDecimalString(s.flow ?? dec(0))}::numeric)`,
    ),
    sql`, `,
  );
  const events = sql.join(
    rows.map(({ s, price }) => {
      const data = {
        poolId: s.poolId,
        totalValue: toNumber(s.nav),
        sharePrice: toNumber(price),
        totalShares: toNumber(s.totalShares),
        timestamp: ts,
      };
      return sql`(${JSON.stringify(data)}::jsonb)`;
    }),
    sql`, `,
  );
  await db.execute(sql`
    with point as (
      insert into ${poolNavPoints} (id, pool_id, total_value, total_shares, share_price, source, created_at)
      values ${points}
    ),
    pool as (
      update ${pools} p
      set total_value = v.nav, total_shares = coalesce(v.shares, p.total_shares), net_deposits = p.net_deposits + v.flow
      from (values ${values}) as v(id, nav, shares, flow) where p.id = v.id
    ),
    ${outboxCtes('nav_event', 'markets', 'pool_update', sql`select v.data from (values ${events}) as v(data)`)}
    select ${outboxNotified('nav_event')}`);
}

/** The pool an actor (by id or username) manages; NOT_FOUND for an unknown actor or one without a pool. */
export async function findActorPoolId(db: DbOrTx, actorId: string) {
  const [row] = await db
    .select({ poolId: pools.id, actorId: users.id })
    .from(pools)
    .innerJoin(users, eq(users.id, pools.npcActorId))
    .where(and(eq(users.isActor, true), or(eq(users.id, actorId), sql`lower(${users.username}) = lower(${actorId})`)))
    .orderBy(asc(pools.createdAt), asc(pools.id))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', 'This NPC actor manages no pool', { actorId });
  return row;
}

// ---------------------------------------------------------------------------------------------
// SQL twins of lib/pools/math.ts and holdings.ts, for the one-statement deposit (deposit.ts).
// Same formulas, same truncation; lib/pools/pools-sql.int.test.ts holds them to the pure
// functions digit for digit. Divisions cast the dividend to numeric(80,40), so PostgreSQL keeps
// at least as many digits as decimal.js (precision 40) before the truncation.
// ---------------------------------------------------------------------------------------------

const sharesScale = sql.raw(String(SHARE_SCALE));
const moneyScale = sql.raw(String(MONEY_SCALE));
const initialPrice = sql.raw(`${INITIAL_SHARE_PRICE.toFixed()}::numeric`);

/**
 * navOf over what holdings.ts loadHoldings reads, for ONE pool account (`account`, a text SQL
 * expression) whose cash is `cash`: cash + Σ max(0, funded collateral + price PnL at the mark)
 * over its open perps (collateral with the funding accrued to the ticker's index, as
 * withAccruedFunding) + Σ shares × the side's price over its live predictions (the price as
 * holdings reads it: yes_shares / (yes_shares + no_shares), 1 − that for NO), truncated to 8.
 */
export function poolNavSql(account: SQL, cash: SQL) {
  const perps = sql`select sum(greatest(0, ${fundedCollateralSql('pp', sql`pm.funding_index`)}
      + ${pricePnLSql(sql`pp.side`, sql`pp.units`, sql`pp.entry_price`, sql`pm.mark_price`)}))
    from ${perpPositions} pp join ${perpMarkets} pm on pm.ticker = pp.ticker
    where pp.user_id = ${account} and pp.status = 'open'`;
  const predictions = sql`select sum(mp.shares * (case when mp.side = 'YES' then ${yesPriceSql('mk')} else 1 - ${yesPriceSql('mk')} end))
    from ${marketPositions} mp join ${markets} mk on mk.id = mp.market_id
    where mp.user_id = ${account} and mp.shares > 0 and mp.settled_at is null and mk.status = 'active'`;
  return sql`trunc((${cash}) + coalesce((${perps}), 0) + coalesce((${predictions}), 0), ${moneyScale})`;
}

/** sharePriceOf: nav / totalShares, INITIAL_SHARE_PRICE while no shares exist (untruncated). */
export function sharePriceSql(nav: SQL, totalShares: SQL) {
  return sql`(case when (${totalShares}) <= 0 then ${initialPrice} else (${nav})::numeric(80, 40) / (${totalShares}) end)`;
}

/** A share price as lots and NAV points store it: truncated to 18 places (toDecimalPlaces(18, ROUND_DOWN)). */
export function storedSharePriceSql(nav: SQL, totalShares: SQL) {
  return sql`trunc(${sharePriceSql(nav, totalShares)}, ${sharesScale})`;
}

/** quoteDeposit's shares: trunc(amount / INITIAL_SHARE_PRICE, 18) into an empty pool, else trunc(amount × totalShares / nav, 18). */
export function depositSharesSql(nav: SQL, totalShares: SQL, amount: SQL) {
  return sql`trunc(case when (${totalShares}) <= 0 then (${amount})::numeric(80, 40) / ${initialPrice}
    else ((${amount}) * (${totalShares}))::numeric(80, 40) / (${nav}) end, ${sharesScale})`;
}
