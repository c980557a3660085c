/**
 * Depositing into a pool. The route's deposit (depositToPool) is ONE prepared statement, as a
 * prediction buy is (lib/markets/service/buy-shares.ts), holding the pool's lock only while
 * PostgreSQL runs it:
 *   pool:  lock the pool's row (active; its name and account as this process knows them)
 *   acct:  lock the pool account's row (its cash)
 *   calc:  the NAV (shared.ts poolNavSql: holdings valued as navOf), the shares and share price
 *          (quoteDeposit in SQL), only when the deposit is allowed (depositProblem's NAV rule, at
 *          least one share unit) and both locked rows are the versions the statement's snapshot
 *          sees: a deposit, withdrawal or manager trade that committed while this one waited for a
 *          lock changed one of them, and its positions may be unseen, so the statement writes
 *          nothing and runs again on a fresh snapshot
 *   then the ledger (the depositor's conditional pool_deposit debit, the pool account's
 *   pool_deposit credit: lib/ledger balanceChangeCtes), the lot, the NAV point, the pool's share
 *   count and net deposits, and pool_update in the outbox: what recordNav writes.
 * When it cannot (an unknown or inactive pool, a refused amount, too small a deposit, too little
 * balance, or still contended), the transaction below runs instead and answers as it always did.
 *
 * depositInTx, inside a caller's transaction (invest, the seed of createPool): lock the pool, value
 * it (lib/pools/holdings, one snapshot), price the shares with the pure quoteDeposit, move the money
 * through the ledger, write the lot and the pool's share count, and record the NAV.
 */
import 'server-only';
import { eq, sql } from 'drizzle-orm';
import { executePrepared, getDb, rowsOf, withTransaction, type Tx } from '@/db/client';
import { poolDeposits, poolNavPoints, pools, users, type TPoolDepositRow, type TPoolRow } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { outboxCtes, outboxNotified } from '@/lib/events/outbox';
import { AppError } from '@/lib/errors/app-error';
import { balanceChangeCtes, credit, debit } from '@/lib/ledger/ledger';
import { parseAmount } from '@/lib/money/amount';
import { dec, toDecimalString, toNumber, type TDecimal } from '@/lib/money/decimal';
import { loadHoldingsOf } from '../holdings';
import { depositProblem, quoteDeposit } from '../math';
import { depositSharesSql, lockPool, poolNavSql, recordNav, sharePriceSql, storedSharePriceSql } from './shared';

/** The deposit inside the caller's transaction, the pool already locked (lockPool). */
export async function depositInTx(tx: Tx, opts: { pool: TPoolRow; userId: string; amount: string | number; isSeed?: boolean }) {
  const { pool } = opts;
  const amount = parseAmount(opts.amount, { code: 'INVALID_TRADE_SIZE', label: 'The amount' });
  if (!pool.isActive) throw new AppError('POOL_INACTIVE', 'This pool takes no deposits', { poolId: pool.id });
  const holdings = await loadHoldingsOf(tx, pool.accountUserId);
  const state = { nav: holdings.nav, totalShares: pool.totalShares };
  const problem = depositProblem(state, amount);
  if (problem) {
    const code = dec(state.totalShares).gt(0) && holdings.nav.lte(0) ? 'POOL_INACTIVE' : 'INVALID_TRADE_SIZE';
    throw new AppError(code, problem, { provided: toNumber(amount), poolId: pool.id });
  }
  const q = quoteDeposit(state, amount);
  if (q.shares.lte(0)) throw new AppError('INVALID_TRADE_SIZE', 'This deposit is too small to buy a share', { provided: toNumber(amount) });
  const at = now();
  const reference = { type: 'pool', id: pool.id };
  const { balanceAfter } = await debit(tx, {
    userId: opts.userId,
    amount,
    type: 'pool_deposit',
    description: opts.isSeed ? `Seed capital for ${pool.name}` : `Deposited into ${pool.name}`,
    reference,
  });
  await credit(tx, { userId: pool.accountUserId, amount, type: 'pool_deposit', description: 'Deposit received', reference });
  const [lot] = await tx
    .insert(poolDeposits)
    .values({
      poolId: pool.id,
      userId: opts.userId,
      amount: toDecimalString(amount),
      shares: toDecimalString(q.shares),
      sharePrice: toDecimalString(q.sharePrice.toDecimalPlaces(18, 1)),
      remainingShares: toDecimalString(q.shares),
      costBasis: toDecimalString(amount),
      isSeed: opts.isSeed ?? false,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  // The pool's share count and net deposits are written with its NAV point (one statement).
  await recordNav(tx, [{ poolId: pool.id, nav: q.navAfter, totalShares: q.totalSharesAfter, flow: amount }], opts.isSeed ? 'seed' : 'deposit', at);
  return { lot: lot!, balanceAfter };
}

export function toDepositRecord(lot: TPoolDepositRow) {
  return {
  id: lot.id,
  poolId: lot.poolId,
  amount: toNumber(lot.amount),
  shares: toNumber(lot.shares),
  sharePrice: toNumber(lot.sharePrice),
  createdAt: lot.createdAt.toISOString(),
};
}

/** What the one-statement deposit needs to know of a pool beforehand; checked by the statement. */
type TPoolIdentity = { accountUserId: string; name: string };
const identities = new Map<string, TPoolIdentity>();

/** The deposit statement for a parsed amount. Exported so the benchmark can issue exactly this SQL. */
export function buildDepositStatement(o: { poolId: string; pool: TPoolIdentity; userId: string; amount: TDecimal; at: Date }) {
  const amt = toDecimalString(o.amount);
  const a = sql`${amt}::numeric`;
  const ts = sql`${o.at.toISOString()}::timestamptz`;
  const reference = { type: 'pool', id: o.poolId };
  const debitCtes = balanceChangeCtes({
    name: 'debit',
    transactionId: crypto.randomUUID(),
    userId: o.userId,
    amount: o.amount.negated(),
    type: 'pool_deposit',
    description: `Deposited into ${o.pool.name}`,
    reference,
    at: o.at,
    guard: sql`exists (select 1 from calc)`,
  });
  const creditCtes = balanceChangeCtes({
    name: 'credit',
    transactionId: crypto.randomUUID(),
    userId: o.pool.accountUserId,
    amount: o.amount,
    type: 'pool_deposit',
    description: 'Deposit received',
    reference,
    at: o.at,
    guard: sql`exists (select 1 from debit)`,
  });
  const statement = sql`
    with pool as (
      select p.id, p.total_shares, p.xmin::text as version from ${pools} p
      where p.id = ${o.poolId} and p.account_user_id = ${o.pool.accountUserId} and p.name = ${o.pool.name} and p.is_active
      for update
    ),
    acct as (
      -- After the pool's lock (the exists is a one-time filter, run first), as depositInTx locks.
      select u.virtual_balance, u.xmin::text as version from ${users} u where u.id = ${o.pool.accountUserId} and exists (select 1 from pool)
      for update
    ),
    fresh as (
      select pool.total_shares, acct.virtual_balance as cash from pool, acct
      where pool.version = (select p.xmin::text from ${pools} p where p.id = ${o.poolId})
        and acct.version = (select u.xmin::text from ${users} u where u.id = ${o.pool.accountUserId})
    ),
    -- Materialized: its NAV is computed once, not once per use of v.nav below.
    valued as materialized (
      select f.total_shares, ${poolNavSql(sql`${o.pool.accountUserId}::text`, sql`f.cash`)} as nav from fresh f
    ),
    quoted as materialized (
      select v.total_shares, v.nav, ${depositSharesSql(sql`v.nav`, sql`v.total_shares`, a)} as shares,
        ${storedSharePriceSql(sql`v.nav`, sql`v.total_shares`)} as share_price
      from valued v where not (v.total_shares > 0 and v.nav <= 0)
    ),
    calc as (
      select q.shares, q.share_price, q.nav + ${a} as nav_after, q.total_shares + q.shares as total_shares_after
      from quoted q where q.shares > 0
    ),
    ${debitCtes},
    ${creditCtes},
    lot as (
      insert into ${poolDeposits} (id, pool_id, user_id, amount, shares, share_price, remaining_shares, cost_basis, is_seed, created_at, updated_at)
      select ${crypto.randomUUID()}, ${o.poolId}, ${o.userId}, ${a}, calc.shares, calc.share_price, calc.shares, ${a}, false, ${ts}, ${ts}
      from calc where exists (select 1 from credit)
      returning id, amount, shares, share_price, created_at
    ),
    priced as (
      select calc.nav_after, calc.total_shares_after, trunc(${sharePriceSql(sql`calc.nav_after`, sql`calc.total_shares_after`)}, 18) as price
      from calc, lot
    ),
    point as (
      insert into ${poolNavPoints} (id, pool_id, total_value, total_shares, share_price, source, created_at)
      select ${crypto.randomUUID()}, ${o.poolId}, priced.nav_after, priced.total_shares_after, priced.price, 'deposit', ${ts} from priced
    ),
    booked as (
      update ${pools} p set total_value = priced.nav_after, total_shares = priced.total_shares_after, net_deposits = p.net_deposits + ${a}
      from priced where p.id = ${o.poolId}
    ),
    ${outboxCtes(
      'nav_event',
      'markets',
      'pool_update',
      // The fields recordNav announces.
      sql`select jsonb_build_object('poolId', ${o.poolId}::text, 'totalValue', priced.nav_after::float8, 'sharePrice', priced.price::float8,
        'totalShares', priced.total_shares_after::float8, 'timestamp', ${o.at.toISOString()}::text) as data from priced`,
    )}
    select (select count(*) from pool) as found, (select count(*) from acct) - (select count(*) from fresh) as stale,
      (select virtual_balance from debit) as balance_after, ${outboxNotified('nav_event')} as notified,
      lot.id, lot.amount, lot.shares, lot.share_price, lot.created_at
    from (select 1) one left join lot on true`;
  return { statement };
}

type TDepositRow = {
  found: number | string;
  stale: number | string;
  balance_after: string | null;
  id: string | null;
  amount: string;
  shares: string;
  share_price: string;
  created_at: string | Date;
};

/** Statement attempts before the transaction takes over (each lost race gives a fresh snapshot). */
const ATTEMPTS = 3;

/** The deposit as one statement; null when it wrote nothing (the transaction path then answers). */
async function depositInOneStatement(input: { caller: TCaller; poolId: string; amount: string | number }) {
  let amount: TDecimal;
  try {
    amount = parseAmount(input.amount, { code: 'INVALID_TRADE_SIZE', label: 'The amount' });
  } catch {
    return null;
  }
  // What the amount alone decides (the NAV rule is the statement's).
  if (depositProblem({ nav: 1, totalShares: 0 }, amount)) return null;
  let pool = identities.get(input.poolId);
  if (!pool) {
    const [p] = await (await getDb()).select({ accountUserId: pools.accountUserId, name: pools.name }).from(pools).where(eq(pools.id, input.poolId));
    if (!p) return null;
    identities.set(input.poolId, (pool = p));
  }
  // A pool's own account never deposits into it (one statement cannot debit and credit one row).
  if (pool.accountUserId === input.caller.userId) return null;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const { statement } = buildDepositStatement({ poolId: input.poolId, pool, userId: input.caller.userId, amount, at: now() });
    const row = rowsOf<TDepositRow>(await executePrepared(statement))[0]!;
    if (row.id !== null && row.balance_after !== null) {
      const deposit = {
        id: row.id,
        poolId: input.poolId,
        amount: toNumber(row.amount),
        shares: toNumber(row.shares),
        sharePrice: toNumber(row.share_price),
        createdAt: new Date(row.created_at).toISOString(),
      };
      return { deposit, newBalance: toDecimalString(row.balance_after) };
    }
    if (Number(row.found) === 0) {
      // Unknown, inactive, or renamed: forget what this process knew of it.
      identities.delete(input.poolId);
      return null;
    }
    if (Number(row.stale) === 0) return null;
  }
  return null;
}

/** POST /api/pools/{id}/deposit: the caller buys shares at the current share price. */
export async function depositToPool(input: { caller: TCaller; poolId: string; amount: string | number }) {
  const done = await depositInOneStatement(input);
  if (done) return done;
  const { lot, balanceAfter } = await withTransaction(async (tx) => {
    const pool = await lockPool(tx, input.poolId);
    return depositInTx(tx, { pool, userId: input.caller.userId, amount: input.amount });
  });
  return { deposit: toDepositRecord(lot), newBalance: toDecimalString(balanceAfter) };
}
