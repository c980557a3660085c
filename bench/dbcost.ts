/**
 * Figure "database cost per trade" (BENCH_ONLY=dbcost). On one machine the HTTP framework bounds
 * every API figure; past one machine the API tier scales out and PostgreSQL becomes the limit. So
 * this measures what a trade costs the database, with no HTTP and no server: the services the
 * routes call (buyShares, openPosition, closePosition, depositToPool) run in this process on a
 * throwaway database of their own (created, migrated by opening db/client.ts on it, seeded through
 * seedWorld, provisionUser, createMarket and createPool, dropped at the end).
 *
 * The reference, same run, same driver, same pool size (BENCH_POOL), same callers, users, markets
 * and amounts: the conventional shape peers use, written below. One transaction through the ORM
 * that locks, reads and writes statement by statement: BEGIN; SELECT … FOR UPDATE of the market
 * (ticker, position, pool) and of the user; compute in JS with the project's pure math (cpmm
 * quoteBuy, perps quoteOpen/quoteClose/withAccruedFunding, pools navOf/quoteDeposit); UPDATE the
 * balance; INSERT the ledger row; UPDATE the market; SELECT then UPDATE or INSERT the position;
 * INSERT the trade, the price point and the outbox event (emitEvent); COMMIT; after a perp trade,
 * the liquidation check as two reads. Drizzle's query builder, unprepared, as an ORM sends it.
 * It writes the same rows: before measuring, checkSameRows has both shapes make one trade of each
 * kind from the same state and compares what they wrote column by column, and each phase line
 * prints rows written per trade. It is a benchmark reference on a throwaway database, not a second
 * way to move money: lib/ledger stays the only writer of balances in the product. When a trade's
 * SQL changes (a new column, a new rule), the reference must follow: the check says so.
 *
 * How the database's cost is measured: pg_stat_statements needs shared_preload_libraries, which the
 * shared server does not load (and this benchmark does not reconfigure it). Instead, per phase (one
 * trade kind, one shape, one concurrency), on a fresh connection pool whose backends exist only for
 * that phase, and on a database only this benchmark uses:
 *   - PG CPU: the on-CPU time of the phase's backends (/proc/<pid>/schedstat, nanoseconds; stat's
 *     ticks without it), when the database runs on this machine (checked: the pid's command is
 *     postgres). Everything the backend does for the trade: parse, plan, execute, each message's
 *     read and answer. Not the shared background processes (WAL writer, checkpointer). The time a
 *     backend waited for a core (a loaded machine) is printed as run-queue, outside the CPU.
 *   - PG active: pg_stat_database.active_time of the database (PostgreSQL 14+), the time its
 *     backends were in the "active" state: CPU, waits for a core, the commit's WAL flush, lock
 *     waits; not the network, not the client, and not the per-message work between statements
 *     (so it undercounts the reference, which sends a dozen). Backends flush it when they exit,
 *     so each phase closes its pool and waits for its backends to leave before reading the delta.
 *     idle-in-tx (idle_in_transaction_time): how long transactions held their locks waiting for
 *     the client between statements.
 *   - DB tx/s/core: 1000 / PG CPU ms per trade at CALLERS callers: what one PostgreSQL core
 *     sustains when the API tier runs elsewhere (lock waits and disk flushes aside).
 *   - tx/s c=CALLERS: measured in this process, no HTTP: bounded by the database and by this
 *     process's own work on the same cores.
 * PG CPU and PG active are taken at one caller (no lock waits: the cost of one trade). Opening a
 * phase's pool costs a little (the migration check, a backend's start): a first phase with no
 * trade measures it, and each phase's figures are net of it (the start of the further backends of
 * a concurrent phase, about a millisecond each, stays in). On a machine shared with other work the
 * time figures move from run to run (the disk's flush, the run queue); the CPU figures much less,
 * so the table carries PG CPU (one caller), DB tx/s/core and tx/s, and PG active stays in the
 * phase lines.
 *
 * Each phase runs in BENCH_DBCOST_ROUNDS rounds (default 3), the two shapes taking turns and
 * turns going first, so that both meet the same load of a shared machine; a line sums its rounds.
 *
 * Environment: BENCH_DBCOST_CALLERS (default 16), BENCH_DBCOST_SERIAL (trades per one-caller
 * phase, default 150), BENCH_DBCOST_TRADES (trades per concurrent phase, default 600),
 * BENCH_DBCOST_ROUNDS. About 30 s on an idle 2-core machine.
 */
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, gt, gte, isNull, lte, or, sql } from 'drizzle-orm';
import postgres from 'postgres';
import { getDb, rowsOf, withTransaction, type Tx } from '@/db/client';
import {
  balanceTransactions,
  marketPositions,
  marketPricePoints,
  markets,
  organizations,
  perpMarkets,
  perpPositions,
  perpPricePoints,
  perpTrades,
  poolDeposits,
  poolNavPoints,
  pools,
  trades,
  users,
} from '@/db/schema';
import { callerOfUser, type TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { resetEnvCache } from '@/lib/env';
import { emitEvent } from '@/lib/events/outbox';
import { prices, quoteBuy, toPool, toPublic, type TOutcome } from '@/lib/markets/cpmm';
import { buyShares, parseBuyAmount } from '@/lib/markets/service/buy-shares';
import { createMarket } from '@/lib/markets/service/create-market';
import { dec, toDecimalString, toNumber, type TDecimal } from '@/lib/money/decimal';
import { liquidateTicker } from '@/lib/perps/service/liquidate';
import { closePosition } from '@/lib/perps/service/close-position';
import { openPosition } from '@/lib/perps/service/open-position';
import { liquidationPrice, liquidationShift, markToMarket, orderProblem, quoteClose, quoteOpen, withAccruedFunding, type TPerpSide } from '@/lib/perps/math';
import { depositProblem, navOf, quoteDeposit, sharePriceOf, SHARE_SCALE } from '@/lib/pools/math';
import { depositToPool } from '@/lib/pools/service/deposit';
import { provisionUser } from '@/lib/users/service/provision-user';
import { seedWorld } from '@/lib/world/seed/world';
import type { TFigure } from './figures';
import { closeLibDb, createBenchPools, openLibDb } from './pools';

const CALLERS = Number(process.env.BENCH_DBCOST_CALLERS ?? 16);
const SERIAL_TRADES = Number(process.env.BENCH_DBCOST_SERIAL ?? 150);
const CONCURRENT_TRADES = Number(process.env.BENCH_DBCOST_TRADES ?? 600);
/** Each phase's trades in rounds, the project and the reference taking turns. */
const ROUNDS = Math.max(1, Number(process.env.BENCH_DBCOST_ROUNDS ?? 3));
/** Users per caller: no two concurrent callers trade for the same user. */
const USERS_PER_CALLER = 4;
const MARKETS = 20;
const EXTRA_POOLS = 12;
const REFERENCE_IS = 'ORM transaction';

type TShape = 'ours' | 'theirs';
const SHAPES: readonly TShape[] = ['ours', 'theirs'];
type TWork = (i: number, caller: number) => Promise<void>;

// ---------------------------------------------------------------------------------------------
// The conventional shape (the reference): one ORM transaction, statement by statement.
// ---------------------------------------------------------------------------------------------

const ROUND_DOWN = 1;

/** The balance change a ledger makes, as an ORM-shaped service writes it: the row is already locked. */
const writeBalance = async (
  tx: Tx,
  o: { userId: string; before: TDecimal; amount: TDecimal; type: string; description: string; reference: { type: string; id: string }; at: Date },
) => {
  const after = o.before.plus(o.amount);
  await tx.update(users).set({ virtualBalance: toDecimalString(after), updatedAt: o.at }).where(eq(users.id, o.userId));
  await tx.insert(balanceTransactions).values({
    userId: o.userId,
    type: o.type,
    amount: toDecimalString(o.amount),
    balanceBefore: toDecimalString(o.before),
    balanceAfter: toDecimalString(after),
    description: o.description,
    referenceType: o.reference.type,
    referenceId: o.reference.id,
    createdAt: o.at,
  });
  return after;
};

const lockUserBalance = async (tx: Tx, userId: string) => {
  const [u] = await tx.select({ balance: users.virtualBalance, lifetimePnL: users.lifetimePnL }).from(users).where(eq(users.id, userId)).for('update');
  if (!u) throw new Error(`no user ${userId}`);
  return { balance: dec(u.balance), lifetimePnL: dec(u.lifetimePnL) };
};

/** A prediction buy (no referrer), the conventional way. */
const conventionalBuy = async (o: { userId: string; marketId: string; outcome: TOutcome; amount: number }) => {
  const amount = parseBuyAmount(o.amount);
  const amt = toDecimalString(amount);
  await withTransaction(async (tx) => {
    const at = now();
    const [m] = await tx.select().from(markets).where(eq(markets.id, o.marketId)).for('update');
    if (!m || m.status !== 'active' || m.resolutionDate.getTime() <= at.getTime()) throw new Error('market closed');
    const u = await lockUserBalance(tx, o.userId);
    if (u.balance.lt(amount)) throw new Error('insufficient balance');
    const q = quoteBuy(toPool({ yesShares: m.yesShares, noShares: m.noShares }), o.outcome, amount);
    const after = toPublic(q.pool);
    await writeBalance(tx, {
      userId: o.userId,
      before: u.balance,
      amount: amount.negated(),
      type: 'pred_buy',
      description: `Bought ${o.outcome} in a prediction market`,
      reference: { type: 'market', id: o.marketId },
      at,
    });
    await tx
      .update(markets)
      .set({ yesShares: toDecimalString(after.yesShares), noShares: toDecimalString(after.noShares), volume: toDecimalString(dec(m.volume).plus(amount)) })
      .where(eq(markets.id, o.marketId));
    const where = and(eq(marketPositions.userId, o.userId), eq(marketPositions.marketId, o.marketId), eq(marketPositions.side, o.outcome));
    const [held] = await tx.select().from(marketPositions).where(where).for('update');
    let positionId: string;
    if (held) {
      positionId = held.id;
      await tx
        .update(marketPositions)
        .set({ shares: toDecimalString(dec(held.shares).plus(q.shares)), costBasis: toDecimalString(dec(held.costBasis).plus(amount)), updatedAt: at })
        .where(eq(marketPositions.id, held.id));
    } else {
      const [created] = await tx
        .insert(marketPositions)
        .values({ userId: o.userId, marketId: o.marketId, side: o.outcome, shares: toDecimalString(q.shares), costBasis: amt, createdAt: at, updatedAt: at })
        .returning({ id: marketPositions.id });
      positionId = created!.id;
    }
    const yesPrice = after.yesShares.div(after.yesShares.plus(after.noShares)).toDecimalPlaces(SHARE_SCALE, ROUND_DOWN);
    await tx.insert(trades).values({
      userId: o.userId,
      marketId: o.marketId,
      positionId,
      side: o.outcome,
      action: 'buy',
      amount: amt,
      shares: toDecimalString(q.shares),
      price: toDecimalString(amount.div(q.shares).toDecimalPlaces(SHARE_SCALE, ROUND_DOWN)),
      feeTotal: toDecimalString(q.fees.total),
      feePlatform: toDecimalString(q.fees.platform),
      feeReferrer: toDecimalString(q.fees.referrer),
      yesPriceAfter: toDecimalString(yesPrice),
      createdAt: at,
    });
    await tx.insert(marketPricePoints).values({
      marketId: o.marketId,
      yesPrice: toDecimalString(yesPrice),
      yesShares: toDecimalString(after.yesShares),
      noShares: toDecimalString(after.noShares),
      source: 'trade',
      createdAt: at,
    });
    const p = prices(q.pool);
    await emitEvent(tx, 'markets', {
      type: 'market_update',
      data: {
        marketId: o.marketId,
        yesPrice: toNumber(p.yes),
        noPrice: toNumber(p.no),
        yesShares: toNumber(after.yesShares),
        noShares: toNumber(after.noShares),
        timestamp: at.toISOString(),
      },
    });
  });
};

let referenceLiquidations = 0;

/**
 * After a trade: the conventional liquidation check, the mark and funding index, then the
 * positions they reached (liquidation_key against mark − shift(index), as lib/perps/math says).
 */
const conventionalSweep = async (ticker: string) => {
  const db = await getDb();
  const [m] = await db.select({ mark: perpMarkets.markPrice, index: perpMarkets.fundingIndex }).from(perpMarkets).where(eq(perpMarkets.ticker, ticker));
  const reach = (side: TPerpSide) => toDecimalString(dec(m!.mark).minus(liquidationShift(side, m!.index)));
  const due = await db
    .select({ id: perpPositions.id })
    .from(perpPositions)
    .where(
      and(
        eq(perpPositions.ticker, ticker),
        eq(perpPositions.status, 'open'),
        or(
          and(eq(perpPositions.side, 'long'), gte(perpPositions.liquidationKey, reach('long'))),
          and(eq(perpPositions.side, 'short'), lte(perpPositions.liquidationKey, reach('short'))),
        ),
      ),
    );
  // Never reached with these sizes (impact 0.002% a trade); counted and printed if it were.
  if (due.length > 0) {
    referenceLiquidations += due.length;
    await liquidateTicker(ticker);
  }
};

/** A perp open (no referrer), the conventional way; returns the position's id. */
const conventionalOpen = async (o: { userId: string; ticker: string; side: TPerpSide; size: string; leverage: string }) => {
  if (orderProblem(o)) throw new Error('bad order');
  const id = await withTransaction(async (tx) => {
    const at = now();
    const [m] = await tx.select().from(perpMarkets).where(eq(perpMarkets.ticker, o.ticker)).for('update');
    if (!m) throw new Error(`unknown ticker ${o.ticker}`);
    const u = await lockUserBalance(tx, o.userId);
    const q = quoteOpen({ side: o.side, size: o.size, leverage: o.leverage, markPrice: m.markPrice, depth: m.depth });
    if (u.balance.lt(q.cost)) throw new Error('insufficient balance');
    const positionId = crypto.randomUUID();
    await writeBalance(tx, {
      userId: o.userId,
      before: u.balance,
      amount: q.cost.negated(),
      type: 'perp_open',
      description: `Opened a ${o.leverage}x ${o.side} on ${o.ticker}`,
      reference: { type: 'perp_position', id: positionId },
      at,
    });
    await tx
      .update(perpMarkets)
      .set({ markPrice: toDecimalString(q.entryPrice), volume: toDecimalString(dec(m.volume).plus(q.size)), updatedAt: at })
      .where(eq(perpMarkets.ticker, o.ticker));
    await emitEvent(tx, 'markets', { type: 'perp_update', data: { ticker: o.ticker, markPrice: toNumber(q.entryPrice), timestamp: at.toISOString() } });
    const margin = toDecimalString(q.margin);
    await tx.insert(perpPositions).values({
      id: positionId,
      userId: o.userId,
      ticker: o.ticker,
      side: o.side,
      size: toDecimalString(q.size),
      units: toDecimalString(q.units),
      entryPrice: toDecimalString(q.entryPrice),
      leverage: o.leverage,
      margin,
      collateral: margin,
      fundingPaid: '0',
      liquidationPrice: toDecimalString(q.liquidationPrice),
      fundingIndexEntry: m.fundingIndex,
      openFee: toDecimalString(q.fee),
      status: 'open',
      openedAt: at,
      updatedAt: at,
    });
    await tx.insert(perpTrades).values({
      userId: o.userId,
      positionId,
      ticker: o.ticker,
      side: o.side,
      action: 'open',
      size: toDecimalString(q.size),
      price: toDecimalString(q.entryPrice),
      fee: toDecimalString(q.fee),
      createdAt: at,
    });
    const [org] = await tx.select({ price: organizations.currentPrice }).from(organizations).where(eq(organizations.ticker, o.ticker));
    await tx.insert(perpPricePoints).values({ ticker: o.ticker, markPrice: toDecimalString(q.entryPrice), indexPrice: org!.price, source: 'trade', createdAt: at });
    return positionId;
  });
  await conventionalSweep(o.ticker);
  return id;
};

/** A perp close (no referrer), the conventional way. */
const conventionalClose = async (o: { userId: string; positionId: string }) => {
  const ticker = await withTransaction(async (tx) => {
    const at = now();
    const [p] = await tx
      .select()
      .from(perpPositions)
      .where(and(eq(perpPositions.id, o.positionId), eq(perpPositions.userId, o.userId), eq(perpPositions.status, 'open')))
      .for('update');
    if (!p) throw new Error('position not open');
    const [m] = await tx.select().from(perpMarkets).where(eq(perpMarkets.ticker, p.ticker)).for('update');
    const u = await lockUserBalance(tx, o.userId);
    // The funding accrued since the entry index is settled into the row (nothing moves it here).
    const funded = withAccruedFunding(p, m!.fundingIndex);
    const q = quoteClose({ ...p, collateral: funded.collateral }, m!.markPrice, m!.depth);
    await tx
      .update(perpMarkets)
      .set({ markPrice: toDecimalString(q.exitPrice), volume: toDecimalString(dec(m!.volume).plus(q.notional)), updatedAt: at })
      .where(eq(perpMarkets.ticker, p.ticker));
    await emitEvent(tx, 'markets', { type: 'perp_update', data: { ticker: p.ticker, markPrice: toNumber(q.exitPrice), timestamp: at.toISOString() } });
    await tx
      .update(perpPositions)
      .set({
        status: 'closed',
        exitPrice: toDecimalString(q.exitPrice),
        realizedPnL: toDecimalString(q.realizedPnL),
        closeFee: toDecimalString(q.fee),
        netPnL: toDecimalString(q.netPnL),
        collateral: toDecimalString(funded.collateral),
        fundingPaid: toDecimalString(funded.fundingPaid),
        fundingIndexEntry: m!.fundingIndex,
        liquidationPrice: toDecimalString(liquidationPrice({ side: p.side, entryPrice: p.entryPrice, units: p.units, collateral: funded.collateral })),
        closedAt: at,
        updatedAt: at,
      })
      .where(eq(perpPositions.id, p.id));
    // The settlement: one balance update (with the realised PnL), one ledger row per non-zero leg.
    const balanceAfter = u.balance.plus(q.total);
    await tx
      .update(users)
      .set({ virtualBalance: toDecimalString(balanceAfter), lifetimePnL: toDecimalString(u.lifetimePnL.plus(q.netPnL)), updatedAt: at })
      .where(eq(users.id, o.userId));
    let before = u.balance;
    for (const leg of [
      { type: 'perp_close', amount: q.closeCredit, description: 'Closed a perpetual position' },
      { type: 'funding_paid', amount: q.fundingCredit, description: 'Funding settled on close' },
    ]) {
      if (leg.amount.isZero()) continue;
      await tx.insert(balanceTransactions).values({
        userId: o.userId,
        type: leg.type,
        amount: toDecimalString(leg.amount),
        balanceBefore: toDecimalString(before),
        balanceAfter: toDecimalString(before.plus(leg.amount)),
        description: leg.description,
        referenceType: 'perp_position',
        referenceId: p.id,
        createdAt: at,
      });
      before = before.plus(leg.amount);
    }
    await tx.insert(perpTrades).values({
      userId: o.userId,
      positionId: p.id,
      ticker: p.ticker,
      side: p.side,
      action: 'close',
      size: toDecimalString(q.notional),
      price: toDecimalString(q.exitPrice),
      fee: toDecimalString(q.fee),
      realizedPnL: toDecimalString(q.netPnL),
      createdAt: at,
    });
    const [org] = await tx.select({ price: organizations.currentPrice }).from(organizations).where(eq(organizations.ticker, p.ticker));
    await tx.insert(perpPricePoints).values({ ticker: p.ticker, markPrice: toDecimalString(q.exitPrice), indexPrice: org!.price, source: 'trade', createdAt: at });
    return p.ticker;
  });
  await conventionalSweep(ticker);
};

/** A pool deposit, the conventional way: the pool's holdings read table by table and valued in JS. */
const conventionalDeposit = async (o: { userId: string; poolId: string; amount: number }) => {
  const amount = dec(o.amount).toDecimalPlaces(8, ROUND_DOWN);
  await withTransaction(async (tx) => {
    const at = now();
    const [pool] = await tx.select().from(pools).where(eq(pools.id, o.poolId)).for('update');
    if (!pool || !pool.isActive) throw new Error('pool not found or inactive');
    const depositor = await lockUserBalance(tx, o.userId);
    const account = await lockUserBalance(tx, pool.accountUserId);
    const perps = await tx
      .select({
        side: perpPositions.side,
        units: perpPositions.units,
        entryPrice: perpPositions.entryPrice,
        margin: perpPositions.margin,
        collateral: perpPositions.collateral,
        fundingPaid: perpPositions.fundingPaid,
        liquidationPrice: perpPositions.liquidationPrice,
        fundingIndexEntry: perpPositions.fundingIndexEntry,
        openFee: perpPositions.openFee,
        mark: perpMarkets.markPrice,
        index: perpMarkets.fundingIndex,
      })
      .from(perpPositions)
      .innerJoin(perpMarkets, eq(perpMarkets.ticker, perpPositions.ticker))
      .where(and(eq(perpPositions.userId, pool.accountUserId), eq(perpPositions.status, 'open')));
    const predictions = await tx
      .select({ side: marketPositions.side, shares: marketPositions.shares, yesShares: markets.yesShares, noShares: markets.noShares })
      .from(marketPositions)
      .innerJoin(markets, eq(markets.id, marketPositions.marketId))
      .where(and(eq(marketPositions.userId, pool.accountUserId), gt(marketPositions.shares, '0'), isNull(marketPositions.settledAt), eq(markets.status, 'active')));
    const nav = navOf({
      cash: account.balance,
      perps: perps.map((p) => {
        const collateral = withAccruedFunding(p, p.index).collateral;
        return { collateral, pricePnL: markToMarket({ ...p, collateral }, p.mark).unrealizedPnL };
      }),
      predictions: predictions.map((h) => {
        const yes = prices(toPool(h)).yes;
        return { shares: h.shares, price: h.side === 'YES' ? yes : dec(1).minus(yes) };
      }),
    });
    const state = { nav, totalShares: pool.totalShares };
    if (depositProblem(state, amount)) throw new Error('deposit refused');
    const q = quoteDeposit(state, amount);
    if (depositor.balance.lt(amount)) throw new Error('insufficient balance');
    const reference = { type: 'pool', id: pool.id };
    await writeBalance(tx, { userId: o.userId, before: depositor.balance, amount: amount.negated(), type: 'pool_deposit', description: `Deposited into ${pool.name}`, reference, at });
    await writeBalance(tx, { userId: pool.accountUserId, before: account.balance, amount, type: 'pool_deposit', description: 'Deposit received', reference, at });
    await tx.insert(poolDeposits).values({
      poolId: pool.id,
      userId: o.userId,
      amount: toDecimalString(amount),
      shares: toDecimalString(q.shares),
      sharePrice: toDecimalString(q.sharePrice.toDecimalPlaces(SHARE_SCALE, ROUND_DOWN)),
      remainingShares: toDecimalString(q.shares),
      costBasis: toDecimalString(amount),
      isSeed: false,
      createdAt: at,
      updatedAt: at,
    });
    const sharePrice = sharePriceOf({ nav: q.navAfter, totalShares: q.totalSharesAfter }).toDecimalPlaces(SHARE_SCALE, ROUND_DOWN);
    await tx.insert(poolNavPoints).values({
      poolId: pool.id,
      totalValue: toDecimalString(q.navAfter),
      totalShares: toDecimalString(q.totalSharesAfter),
      sharePrice: toDecimalString(sharePrice),
      source: 'deposit',
      createdAt: at,
    });
    await tx
      .update(pools)
      .set({ totalValue: toDecimalString(q.navAfter), totalShares: toDecimalString(q.totalSharesAfter), netDeposits: toDecimalString(dec(pool.netDeposits).plus(amount)) })
      .where(eq(pools.id, pool.id));
    await emitEvent(tx, 'markets', {
      type: 'pool_update',
      data: { poolId: pool.id, totalValue: toNumber(q.navAfter), sharePrice: toNumber(sharePrice), totalShares: toNumber(q.totalSharesAfter), timestamp: at.toISOString() },
    });
  });
};

// ---------------------------------------------------------------------------------------------
// The check that the reference is the same trade: one of each kind by both shapes from the same
// state, and the rows they wrote compared column by column (ids and timestamps aside).
// ---------------------------------------------------------------------------------------------

/** What a trade left for one user: balance, ledger, positions and trades (ids and times left out). */
const userRows = async (q: postgres.Sql, userId: string) => ({
  user: await q`select virtual_balance, lifetime_pnl, total_deposited from users where id = ${userId}`,
  ledger: await q`select type, amount, balance_before, balance_after, description, reference_type from balance_transactions
    where user_id = ${userId} and type <> 'deposit' order by seq`,
  predictions: await q`select side, shares, cost_basis, realized_pnl from market_positions where user_id = ${userId} order by side`,
  predictionTrades: await q`select side, action, amount, shares, price, fee_total, fee_platform, fee_referrer, yes_price_after from trades
    where user_id = ${userId} order by created_at`,
  perps: await q`select side, size, units, entry_price, leverage, margin, collateral, funding_paid, liquidation_price, funding_index_entry,
    liquidation_key, open_fee, close_fee, exit_price, realized_pnl, net_pnl, status from perp_positions where user_id = ${userId} order by opened_at`,
  perpTrades: await q`select side, action, size, price, fee, realized_pnl from perp_trades where user_id = ${userId} order by created_at, action desc`,
  lots: await q`select amount, shares, share_price, remaining_shares, cost_basis, is_seed from pool_deposits where user_id = ${userId}`,
});

/** The newest event of a type, without what names the market or the instant. */
const lastEvent = async (q: postgres.Sql, type: string) => {
  const [e] = await q`select data - 'marketId' - 'poolId' - 'timestamp' as data from event_log where type = ${type} order by id desc limit 1`;
  return e?.data as unknown;
};

/** Compares two snapshots; returns the paths that differ. */
const differences = (a: unknown, b: unknown, path = ''): string[] => {
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((k) => differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`));
  }
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [`${path}: ${JSON.stringify(a)} ≠ ${JSON.stringify(b)}`];
};

/**
 * One trade of each kind by the project and by the reference, from the same state: two fresh
 * users with the same balance, two fresh markets and two fresh pools of the same size, and one
 * ticker put back to the same mark before each perp trade. Prints the differing columns, if any.
 */
const checkSameRows = async (o: { databaseUrl: string; managers: string[]; ticker: string }) => {
  const db = await getDb();
  const q = postgres(o.databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const [a, b] = [callerOfUser(await provisionUser({ subject: 'dbcost|check-a' })), callerOfUser(await provisionUser({ subject: 'dbcost|check-b' }))];
    const resolutionDate = new Date(Date.now() + 30 * 86_400_000);
    const [ma, mb] = [
      await createMarket({ caller: null, text: 'Database cost check question A?', resolutionDate, liquidity: 5000 }),
      await createMarket({ caller: null, text: 'Database cost check question B?', resolutionDate, liquidity: 5000 }),
    ];
    const found: string[] = [];
    const compare = (what: string, x: unknown, y: unknown) => found.push(...differences(x, y, what));
    const marketRow = async (id: string) => q`select yes_shares, no_shares, volume from markets where id = ${id}`;
    const points = async (id: string) => q`select yes_price, yes_shares, no_shares, source from market_price_points where market_id = ${id} order by created_at`;

    await buyShares({ caller: a, marketId: ma.id, outcome: 'YES', amount: 37 });
    const eventA = await lastEvent(q, 'market_update');
    await conventionalBuy({ userId: b.userId, marketId: mb.id, outcome: 'YES', amount: 37 });
    compare('buy event', eventA, await lastEvent(q, 'market_update'));
    compare('buy market', await marketRow(ma.id), await marketRow(mb.id));
    compare('buy price points', await points(ma.id), await points(mb.id));

    // Perps: the same ticker, put back to the same mark and volume before each trade.
    const [t0] = await q`select mark_price, volume from perp_markets where ticker = ${o.ticker}`;
    const reset = () => q`update perp_markets set mark_price = ${t0!.mark_price}, volume = ${t0!.volume} where ticker = ${o.ticker}`;
    const tickerAfter = async () => ({
      market: await q`select mark_price, volume from perp_markets where ticker = ${o.ticker}`,
      point: await q`select mark_price, index_price, source from perp_price_points where ticker = ${o.ticker} order by created_at desc limit 1`,
      event: await lastEvent(q, 'perp_update'),
    });
    await reset();
    const opened = await openPosition({ caller: a, ticker: o.ticker, side: 'long', size: 2500, leverage: 7 });
    const openA = await tickerAfter();
    await reset();
    const openedB = await conventionalOpen({ userId: b.userId, ticker: o.ticker, side: 'long', size: '2500', leverage: '7' });
    compare('perp open', openA, await tickerAfter());
    await reset();
    await closePosition({ caller: a, positionId: opened.position.id });
    const closeA = await tickerAfter();
    await reset();
    await conventionalClose({ userId: b.userId, positionId: openedB });
    compare('perp close', closeA, await tickerAfter());

    // Pools: two new pools of the same seed capital.
    const [pa, pb] = await createBenchPools({ prefix: 'dbcost-check', n: 2, managers: o.managers.slice(0, 2), seedCapital: () => '7000' });
    const poolRows = async (id: string) => ({
      pool: await q`select total_value, total_shares, net_deposits from pools where id = ${id}`,
      nav: await q`select total_value, total_shares, share_price, source from pool_nav_points where pool_id = ${id} order by created_at`,
      account: await q`select u.virtual_balance, t.type, t.amount, t.balance_before, t.balance_after, t.description from pools p
        join users u on u.id = p.account_user_id join balance_transactions t on t.user_id = u.id where p.id = ${id} order by t.seq`,
    });
    await depositToPool({ caller: a, poolId: pa!, amount: 123.45 });
    const eventPa = await lastEvent(q, 'pool_update');
    await conventionalDeposit({ userId: b.userId, poolId: pb!, amount: 123.45 });
    compare('pool event', eventPa, await lastEvent(q, 'pool_update'));
    compare('pool', await poolRows(pa!), await poolRows(pb!));

    // Everything the two users own: the pool names differ in the ledger's descriptions only.
    const names = rowsOf<{ id: string; name: string }>(await db.execute(sql`select id, name from pools where id in (${pa!}, ${pb!})`));
    const [ua, ub] = [await userRows(q, a.userId), await userRows(q, b.userId)];
    const unname = (r: unknown) => JSON.parse(JSON.stringify(r).replaceAll(names.find((n) => n.id === pb)!.name, names.find((n) => n.id === pa)!.name));
    compare('user', ua, unname(ub));
    const columns = (x: unknown) => JSON.stringify(x).match(/":/g)?.length ?? 0;
    if (found.length === 0) {
      console.log(`  check: one trade of each kind by the project and by the reference wrote the same values (${columns(ua) + columns(openA) * 2 + columns(await poolRows(pa!))} columns compared)`);
    } else {
      console.log(`  check FAILED: the reference wrote other values than the project:\n    ${found.slice(0, 12).join('\n    ')}`);
    }
  } finally {
    await q.end();
  }
};

// ---------------------------------------------------------------------------------------------
// Measuring a phase: fresh pool, trades, pool closed, server-side counters read.
// ---------------------------------------------------------------------------------------------

type TDbCounters = { activeMs: number; idleTxMs: number; commits: number; rollbacks: number; written: number };

type TPhase = {
  trades: number;
  failures: number;
  wallMs: number;
  /** PostgreSQL time per trade: active_time (ms). */
  pgMs: number;
  idleTxMs: number;
  /** Backend CPU per trade (ms); null when the server is not on this machine. */
  cpuMs: number | null;
  /** Time the phase's backends waited for a core (a loaded machine), per trade; null when unknown. */
  runQueueMs: number | null;
  commits: number;
  rows: number;
  connections: number;
};

const clockTicks = (() => {
  try {
    return Number(execSync('getconf CLK_TCK', { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * CPU (ms) a local PostgreSQL backend has used, and how long it waited for a core (ms, null when
 * unknown); null if `pid` is not a postgres process on this machine. /proc/<pid>/schedstat counts
 * nanoseconds (on a core, waiting in the run queue); without it, stat's utime + stime in ticks.
 */
const backendCpu = (pid: number): { cpuMs: number; waitMs: number | null } | null => {
  try {
    if (!fs.readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('postgres')) return null;
    try {
      const [onCpu, waiting] = fs.readFileSync(`/proc/${pid}/schedstat`, 'utf8').trim().split(' ').map(Number);
      if (Number.isFinite(onCpu) && Number.isFinite(waiting)) return { cpuMs: onCpu! / 1e6, waitMs: waiting! / 1e6 };
    } catch {
      /* no schedstat: ticks below */
    }
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat (utime, stime); fields[0] is field 3.
    return { cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks, waitMs: null };
  } catch {
    return null;
  }
};

const makeMeter = (admin: postgres.Sql, dbName: string, databaseUrl: string, poolMax: number, local: boolean) => {
  const counters = async (): Promise<TDbCounters> => {
    await admin`select pg_stat_clear_snapshot()`;
    const [r] = await admin`
      select active_time, idle_in_transaction_time, xact_commit, xact_rollback, tup_inserted + tup_updated + tup_deleted as written
      from pg_stat_database where datname = ${dbName}`;
    return {
      activeMs: Number(r!.active_time),
      idleTxMs: Number(r!.idle_in_transaction_time),
      commits: Number(r!.xact_commit),
      rollbacks: Number(r!.xact_rollback),
      written: Number(r!.written),
    };
  };
  const backends = async () => (await admin`select pid from pg_stat_activity where datname = ${dbName}`).map((r) => Number(r.pid));
  /** Waits until no backend of the database is left, so all of them have flushed their counters. */
  const drained = async () => {
    for (let i = 0; i < 100; i++) {
      if ((await backends()).length === 0) return;
      await sleep(50);
    }
    console.log('  note: backends of the benchmark database were still connected after 5 s');
  };

  /**
   * What opening and closing a pool costs with no trade (the migration check, a backend's start),
   * measured by the first phase, which has no trade; later phases subtract it.
   */
  let overhead = { activeMs: 0, idleTxMs: 0, commits: 0, written: 0, cpuMs: 0, runQueueMs: 0 };
  return async (opts: { callers: number; from?: number; trades: number; work: TWork }): Promise<TPhase> => {
    await drained();
    const before = await counters();
    await openLibDb(databaseUrl, poolMax);
    const from = opts.from ?? 0;
    let next = from;
    let failures = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: opts.callers }, async (_, caller) => {
        for (let i = next++; i < from + opts.trades; i = next++) {
          try {
            await opts.work(i, caller);
          } catch (e) {
            if (failures++ === 0) console.log(`  note: a trade failed: ${e instanceof Error ? e.message : String(e)}`);
          }
        }
      }),
    );
    const wallMs = performance.now() - t0;
    const pids = await backends();
    const cpu = local ? pids.map(backendCpu) : [];
    const known = local && cpu.every((c) => c !== null);
    const cpuMs = known ? cpu.reduce<number>((s, c) => s + c!.cpuMs, 0) : null;
    const runQueueMs = known && cpu.every((c) => c!.waitMs !== null) ? cpu.reduce<number>((s, c) => s + c!.waitMs!, 0) : null;
    await closeLibDb();
    await drained();
    const after = await counters();
    const total = {
      activeMs: after.activeMs - before.activeMs,
      idleTxMs: after.idleTxMs - before.idleTxMs,
      commits: after.commits - before.commits,
      written: after.written - before.written,
      cpuMs: cpuMs ?? 0,
      runQueueMs: runQueueMs ?? 0,
    };
    if (opts.trades === 0) overhead = total;
    const n = Math.max(1, opts.trades);
    const per = (k: keyof typeof total) => (opts.trades === 0 ? total[k] : Math.max(0, total[k] - overhead[k]) / n);
    return {
      trades: opts.trades,
      failures,
      wallMs,
      pgMs: per('activeMs'),
      idleTxMs: per('idleTxMs'),
      cpuMs: cpuMs === null ? null : per('cpuMs'),
      runQueueMs: runQueueMs === null ? null : per('runQueueMs'),
      commits: per('commits'),
      rows: per('written'),
      connections: pids.length,
    };
  };
};

/** Rounds of one shape as one phase: totals added, per-trade values weighted by trades. */
const combine = (parts: TPhase[]): TPhase => {
  const trades = parts.reduce((s, p) => s + p.trades, 0);
  const mean = (f: (p: TPhase) => number | null) =>
    parts.some((p) => f(p) === null) ? null : parts.reduce((s, p) => s + f(p)! * p.trades, 0) / Math.max(1, trades);
  return {
    trades,
    failures: parts.reduce((s, p) => s + p.failures, 0),
    wallMs: parts.reduce((s, p) => s + p.wallMs, 0),
    pgMs: mean((p) => p.pgMs)!,
    idleTxMs: mean((p) => p.idleTxMs)!,
    cpuMs: mean((p) => p.cpuMs),
    runQueueMs: mean((p) => p.runQueueMs),
    commits: mean((p) => p.commits)!,
    rows: mean((p) => p.rows)!,
    connections: Math.max(...parts.map((p) => p.connections)),
  };
};

const ms = (v: number | null) => (v === null ? '  n/a' : v.toFixed(3).padStart(6));

/** One phase's line: wall and rate in this process, then PostgreSQL's side, all per trade. */
const describe = (label: string, p: TPhase) =>
  `  ${label.padEnd(24)}${String(p.trades).padStart(5)} tx ${(p.wallMs / p.trades).toFixed(2).padStart(6)} ms wall ` +
  `${(((p.trades - p.failures) * 1000) / p.wallMs).toFixed(0).padStart(4)} tx/s | PG CPU ${ms(p.cpuMs)} run-queue ${ms(p.runQueueMs)} ` +
  `active ${ms(p.pgMs)} idle-in-tx ${ms(p.idleTxMs)} ms | rows ${p.rows.toFixed(2)} commits ${p.commits.toFixed(2)} conns ${p.connections}` +
  (p.failures ? ` FAILED ${p.failures}` : '');

export const benchDbCost = async (ctx: { baseUrl: string; figures: TFigure[]; poolMax: number }) => {
  const { figures, poolMax } = ctx;
  const dbName = `pm_dbcost_${Date.now()}`;
  const admin = postgres(ctx.baseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${dbName}`);
  const url = new URL(ctx.baseUrl);
  url.pathname = `/${dbName}`;
  const databaseUrl = url.toString();
  const local = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  const saved = { STARTING_BALANCE: process.env.STARTING_BALANCE, DATABASE_URL: process.env.DATABASE_URL, DB_POOL_MAX: process.env.DB_POOL_MAX };
  // Another figure may have left the project's handle open on the main benchmark database.
  await closeLibDb();
  try {
    console.log(`\nDatabase cost per trade: ${CALLERS} callers, ${poolMax} connections, services in this process, database ${dbName}…`);
    process.env.STARTING_BALANCE = '1000000';
    const db = await openLibDb(databaseUrl, poolMax);
    await seedWorld(db);
    const userRows = [];
    for (let i = 0; i < CALLERS * USERS_PER_CALLER; i++) userRows.push(await provisionUser({ subject: `dbcost|${i}` }));
    const callers: TCaller[] = userRows.map((u) => callerOfUser(u));
    const marketIds: string[] = [];
    for (let i = 0; i < MARKETS; i++) {
      const m = await createMarket({ caller: null, text: `Database cost question number ${i + 1}?`, resolutionDate: new Date(Date.now() + 30 * 86_400_000), liquidity: 100000 });
      marketIds.push(m.id);
    }
    const seededPools = (await db.select({ id: pools.id }).from(pools).orderBy(pools.id)).map((r) => r.id);
    const managers = rowsOf<{ id: string }>(await db.execute(sql`select id from users where is_actor and id like 'actor-%' order by id`));
    const created = await createBenchPools({ prefix: 'dbcost-pool', n: EXTRA_POOLS, managers: managers.map((r) => r.id), seedCapital: (i) => String(2_000 * (1 + (i % 10))) });
    const poolIds = [...seededPools, ...created];
    const tickers = (await db.select({ ticker: perpMarkets.ticker }).from(perpMarkets).orderBy(perpMarkets.ticker)).map((r) => r.ticker);
    await checkSameRows({ databaseUrl, managers: managers.map((r) => r.id), ticker: tickers[0]! });
    await db.execute(sql`analyze`);
    await closeLibDb();

    const phase = makeMeter(admin, dbName, databaseUrl, poolMax, local);
    const empty = await phase({ callers: 1, trades: 0, work: async () => {} });
    console.log(
      `  overhead of a phase, subtracted from each (open and close a pool, no trade): PG active ${empty.pgMs.toFixed(1)} ms, ` +
        `CPU ${empty.cpuMs === null ? 'n/a' : `${empty.cpuMs.toFixed(1)} ms`}, ${empty.commits} commits`,
    );
    if (!local || empty.cpuMs === null) console.log('  note: PostgreSQL is not on this machine (or not readable in /proc): no CPU figures');

    /** Caller c trades for its own users only; serial phases use them all. */
    const userOf = (i: number, caller: number, callersInPhase: number) => callers[(caller + callersInPhase * (i % USERS_PER_CALLER)) % callers.length]!;
    const serialUser = (i: number) => callers[i % callers.length]!;

    type TKind = {
      name: string;
      /** Trade i for caller c; `key` names the shape and mode (the close phase finds its open phase's positions). */
      ours: (c: TCaller, i: number, key: string) => Promise<void>;
      theirs: (c: TCaller, i: number, key: string) => Promise<void>;
    };
    // Positions each open phase made, for the close phase of the same shape and concurrency.
    const opened = new Map<string, { caller: TCaller; id: string }[]>();
    const kinds: TKind[] = [
      {
        name: 'prediction buy',
        ours: async (c, i) => {
          await buyShares({ caller: c, marketId: marketIds[i % MARKETS]!, outcome: i % 3 ? 'YES' : 'NO', amount: 1 + (i % 10) });
        },
        theirs: async (c, i) => {
          await conventionalBuy({ userId: c.userId, marketId: marketIds[i % MARKETS]!, outcome: i % 3 ? 'YES' : 'NO', amount: 1 + (i % 10) });
        },
      },
      {
        name: 'perp open',
        ours: async (c, i, key) => {
          const r = await openPosition({ caller: c, ticker: tickers[i % tickers.length]!, side: i % 2 ? 'long' : 'short', size: 100, leverage: 5 });
          opened.get(key)![i] = { caller: c, id: r.position.id };
        },
        theirs: async (c, i, key) => {
          const id = await conventionalOpen({ userId: c.userId, ticker: tickers[i % tickers.length]!, side: i % 2 ? 'long' : 'short', size: '100', leverage: '5' });
          opened.get(key)![i] = { caller: c, id };
        },
      },
      {
        name: 'perp close',
        ours: async (_c, i, key) => {
          const p = opened.get(key)![i]!;
          await closePosition({ caller: p.caller, positionId: p.id });
        },
        theirs: async (_c, i, key) => {
          const p = opened.get(key)![i]!;
          await conventionalClose({ userId: p.caller.userId, positionId: p.id });
        },
      },
      {
        name: 'pool deposit',
        ours: async (c, i) => {
          await depositToPool({ caller: c, poolId: poolIds[i % poolIds.length]!, amount: 10 + (i % 90) });
        },
        theirs: async (c, i) => {
          await conventionalDeposit({ userId: c.userId, poolId: poolIds[i % poolIds.length]!, amount: 10 + (i % 90) });
        },
      },
    ];

    for (const kind of kinds) {
      const results = {} as Record<`${TShape}-${'serial' | 'concurrent'}`, TPhase>;
      for (const mode of ['serial', 'concurrent'] as const) {
        // Trade i of a shape and mode closes the position trade i of the open phase opened.
        const keyOf = (shape: TShape) => `${shape}-${mode}`;
        if (kind.name === 'perp open') for (const shape of SHAPES) opened.set(keyOf(shape), []);
        const total = mode === 'serial' ? SERIAL_TRADES : CONCURRENT_TRADES;
        const perRound = Math.ceil(total / ROUNDS);
        const parts: Record<TShape, TPhase[]> = { ours: [], theirs: [] };
        // Rounds, the shapes taking turns (and turns going first), so both see the machine alike.
        for (let r = 0, from = 0; from < total; r++, from += perRound) {
          const trades = Math.min(perRound, total - from);
          for (const shape of r % 2 ? [...SHAPES].reverse() : SHAPES) {
            const run = kind[shape];
            const key = keyOf(shape);
            parts[shape].push(
              mode === 'serial'
                ? await phase({ callers: 1, from, trades, work: (i) => run(serialUser(i), i, key) })
                : await phase({ callers: CALLERS, from, trades, work: (i, c) => run(userOf(i, c, CALLERS), i, key) }),
            );
          }
        }
        for (const shape of SHAPES) {
          const p = combine(parts[shape]);
          results[keyOf(shape) as keyof typeof results] = p;
          console.log(describe(`${kind.name} ${shape === 'ours' ? 'project' : 'ORM ref'} c=${mode === 'serial' ? 1 : CALLERS}`, p));
        }
      }
      const short = kind.name.replace('prediction ', '');
      const [ours1, theirs1, oursC, theirsC] = [results['ours-serial'], results['theirs-serial'], results['ours-concurrent'], results['theirs-concurrent']];
      const lower = { unit: 'ms', higherIsBetter: false, referenceIs: REFERENCE_IS };
      if (ours1.cpuMs !== null && theirs1.cpuMs !== null) figures.push({ name: `${short} PG CPU ms`, project: ours1.cpuMs, reference: theirs1.cpuMs, ...lower });
      if (oursC.cpuMs !== null && theirsC.cpuMs !== null && oursC.cpuMs > 0 && theirsC.cpuMs > 0) {
        figures.push({ name: `${short} DB tx/s/core`, project: 1000 / oursC.cpuMs, reference: 1000 / theirsC.cpuMs, unit: 'tx/s', higherIsBetter: true, referenceIs: REFERENCE_IS });
      }
      const rate = (p: TPhase) => ((p.trades - p.failures) * 1000) / p.wallMs;
      figures.push({
        name: `${short} tx/s c=${CALLERS}`,
        project: rate(results['ours-concurrent']),
        reference: rate(results['theirs-concurrent']),
        unit: 'tx/s',
        higherIsBetter: true,
        referenceIs: REFERENCE_IS,
      });
    }
    if (referenceLiquidations > 0) console.log(`  note: the reference's liquidation check found ${referenceLiquidations} positions`);
    console.log(
      `  Per trade. PG CPU: the backends' on-CPU time at 1 caller (run-queue: waiting for a core). PG active: pg_stat_database\n` +
        `  active_time at 1 caller (CPU in statements, waits for a core, the commit's WAL flush; not the per-message work between\n` +
        `  statements; at ${CALLERS} callers also lock waits and queued pipelined statements). idle-in-tx: locks held waiting for the\n` +
        `  client. DB tx/s/core: 1000 / PG CPU ms at ${CALLERS} callers, what one PostgreSQL core sustains with the API elsewhere.\n` +
        `  tx/s c=${CALLERS}: measured in this process, no HTTP. Ratio = project / reference.`,
    );
  } finally {
    await closeLibDb();
    // The environment as it was (openLibDb pointed it at this database).
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetEnvCache();
    await admin.unsafe(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }
};
