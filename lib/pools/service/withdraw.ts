/**
 * Withdrawing from a pool: one transaction that locks the pool, then the lots, values the pool
 * (one snapshot), prices each lot's shares with the pure quoteWithdraw (value at the share price,
 * the lot's cost, the performance fee on profit only), and moves the money through the ledger:
 * the pool account pays the value (pool_withdraw), the holder receives it less the fee
 * (pool_withdraw, booking the net profit), the manager receives the fee (pool_performance_fee).
 *
 * Liquidity: when the pool's cash is short of what it must pay, its manager closes perpetual
 * positions (largest first) within the same transaction, and the withdrawal is priced again
 * afterwards, so the withdrawer, not those who stay, bears what closing cost. If the cash is
 * still short (the rest is in prediction shares), INSUFFICIENT_LIQUIDITY and nothing moved.
 */
import 'server-only';
import { eq, inArray, sql } from 'drizzle-orm';
import { withTransaction, type Tx } from '@/db/client';
import { poolDeposits, poolWithdrawals, users, type TPoolDepositRow, type TPoolRow } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { credit, debit } from '@/lib/ledger/ledger';
import { recordReferralFee } from '@/lib/referrals/fees';
import { findReferrerId } from '@/lib/referrals/queries';
import { referralEarner, referralShare } from '@/lib/referrals/share';
import { dec, toDecimalString, toNumber, type TDecimal } from '@/lib/money/decimal';
import { buildCloseStatement } from '@/lib/perps/service/close-position';
import { liquidateAfterTrade } from '@/lib/perps/service/liquidate';
import { loadHoldingsOf, type THoldings } from '../holdings';
import { quoteWithdraw, withdrawProblem, type TWithdrawQuote } from '../math';
import { lockPool, recordNav } from './shared';

export type TWithdrawItem = { lot: TPoolDepositRow; shares: TDecimal | string };

const quoteAll = (pool: TPoolRow, holdings: THoldings, items: readonly TWithdrawItem[]) => {
  let state = { nav: holdings.nav, totalShares: dec(pool.totalShares) };
  const quotes: TWithdrawQuote[] = [];
  for (const it of items) {
    const q = quoteWithdraw(state, { shares: it.lot.remainingShares, costBasis: it.lot.costBasis }, it.shares, {
      feeRate: pool.performanceFeeRate,
      isManager: it.lot.userId === pool.npcActorId,
    });
    quotes.push(q);
    state = { nav: q.navAfter, totalShares: q.totalSharesAfter };
  }
  const total = quotes.reduce((s, q) => s.plus(q.value), dec(0));
  return { quotes, total, state };
};

/**
 * Closes the pool's perpetual positions, largest first, until its cash covers `needed` (in the
 * caller's transaction). Returns the tickers whose mark moved.
 */
export async function raiseCash(tx: Tx, pool: TPoolRow, holdings: THoldings, needed: TDecimal): Promise<string[]> {
  const tickers: string[] = [];
  let cash = holdings.cash;
  const byValue = [...holdings.perps].sort((a, b) => b.value.comparedTo(a.value) || a.id.localeCompare(b.id));
  for (const p of byValue) {
    if (cash.gte(needed)) break;
    const { statement } = buildCloseStatement({ userId: pool.accountUserId, positionId: p.id, at: now() });
    await tx.execute(statement);
    tickers.push(p.ticker);
    // Roughly what closing returns; the loop re-values exactly afterwards.
    cash = cash.plus(p.value);
  }
  return tickers;
}

/**
 * Withdraws `items` (lots of one holder, already locked, in this order) inside the caller's
 * transaction with the pool locked. Returns the withdrawals, the holder's new balance and the
 * tickers to sweep after commit.
 */
export async function withdrawInTx(tx: Tx, opts: { pool: TPoolRow; userId: string; items: readonly TWithdrawItem[] }) {
  const { pool, items } = opts;
  let holdings = await loadHoldingsOf(tx, pool.accountUserId);
  let priced = quoteAll(pool, holdings, items);
  const closedTickers: string[] = [];
  if (priced.total.gt(holdings.cash) && holdings.perps.length > 0) {
    closedTickers.push(...(await raiseCash(tx, pool, holdings, priced.total)));
    holdings = await loadHoldingsOf(tx, pool.accountUserId);
    priced = quoteAll(pool, holdings, items);
  }
  if (priced.total.gt(holdings.cash)) {
    throw new AppError('INSUFFICIENT_LIQUIDITY', 'The pool cannot pay this withdrawal in cash now; try a smaller amount', {
      required: toDecimalString(priced.total),
      available: toDecimalString(holdings.cash),
      poolId: pool.id,
    });
  }
  const at = now();
  const reference = { type: 'pool', id: pool.id };
  const withdrawals: (typeof poolWithdrawals.$inferSelect & { remainingShares: TDecimal })[] = [];
  let balanceAfter: TDecimal | null = null;
  for (const [i, it] of items.entries()) {
    const q = priced.quotes[i]!;
    if (q.value.lte(0)) throw new AppError('INVALID_TRADE_SIZE', 'These shares are worth nothing to withdraw', { shares: toNumber(q.shares) });
    await debit(tx, { userId: pool.accountUserId, amount: q.value, type: 'pool_withdraw', description: 'Withdrawal paid out', reference });
    if (q.net.gt(0)) {
      const r = await credit(tx, {
        userId: it.lot.userId,
        amount: q.net,
        type: 'pool_withdraw',
        description: `Withdrew from ${pool.name}`,
        reference,
        realizedPnL: q.pnl.minus(q.performanceFee),
      });
      balanceAfter = r.balanceAfter;
    }
    if (q.performanceFee.gt(0)) {
      // The holder's referrer earns half of the fee (the rule of every product); the manager the
      // rest. A manager who referred the holder earns no referral share: they keep the whole fee.
      const referredBy = await findReferrerId(tx, it.lot.userId);
      const parties = { payerId: it.lot.userId, referrerId: referredBy === pool.npcActorId ? null : referredBy };
      const referrerId = referralEarner(parties);
      const { share: referralFee, rest: managerShare } = referralShare(q.performanceFee, parties);
      if (managerShare.gt(0)) {
        await credit(tx, {
          userId: pool.npcActorId,
          amount: managerShare,
          type: 'pool_performance_fee',
          description: `Performance fee from ${pool.name}`,
          reference,
          realizedPnL: managerShare,
        });
      }
      if (referrerId && referralFee.gt(0)) {
        const paid = await credit(tx, {
          userId: referrerId,
          amount: referralFee,
          type: 'referral_fee',
          description: `Referral share of a performance fee from ${pool.name}`,
          reference,
        });
        await recordReferralFee(tx, {
          referrerId,
          referredUserId: it.lot.userId,
          source: 'pools',
          amount: referralFee,
          transactionId: paid.transactionId,
          at,
        });
      }
    }
    await tx
      .update(poolDeposits)
      .set({
        remainingShares: toDecimalString(q.remainingShares),
        costBasis: toDecimalString(q.remainingCost),
        withdrawnValue: sql`${poolDeposits.withdrawnValue} + ${toDecimalString(q.value)}::numeric`,
        realizedPnL: sql`${poolDeposits.realizedPnL} + ${toDecimalString(q.pnl)}::numeric`,
        feesPaid: sql`${poolDeposits.feesPaid} + ${toDecimalString(q.performanceFee)}::numeric`,
        updatedAt: at,
      })
      .where(eq(poolDeposits.id, it.lot.id));
    const [w] = await tx
      .insert(poolWithdrawals)
      .values({
        poolId: pool.id,
        depositId: it.lot.id,
        userId: it.lot.userId,
        shares: toDecimalString(q.shares),
        sharePrice: toDecimalString(q.sharePrice.toDecimalPlaces(18, 1)),
        value: toDecimalString(q.value),
        pnl: toDecimalString(q.pnl),
        performanceFee: toDecimalString(q.performanceFee),
        createdAt: at,
      })
      .returning();
    withdrawals.push({ ...w!, remainingShares: q.remainingShares });
  }
  // The pool's share count and net deposits are written with its NAV point (one statement).
  await recordNav(tx, [{ poolId: pool.id, nav: priced.state.nav, totalShares: priced.state.totalShares, flow: priced.total.negated() }], 'withdraw', at);
  return { withdrawals, quotes: priced.quotes, balanceAfter, closedTickers };
}

/** The caller's lots, locked, in the order given; NOT_FOUND / FORBIDDEN as a client would expect. */
export async function lockLots(tx: Tx, opts: { poolId: string; userId: string; depositIds: readonly string[] }) {
  const rows = await tx
    .select()
    .from(poolDeposits)
    .where(inArray(poolDeposits.id, [...opts.depositIds]))
    .orderBy(poolDeposits.createdAt, poolDeposits.id)
    .for('update');
  for (const id of opts.depositIds) {
    const lot = rows.find((r) => r.id === id);
    if (!lot || lot.poolId !== opts.poolId) throw new AppError('NOT_FOUND', 'Deposit not found in this pool', { depositId: id, poolId: opts.poolId });
    if (lot.userId !== opts.userId) throw new AppError('FORBIDDEN', 'This deposit belongs to another user');
    if (lot.isSeed) throw new AppError('FORBIDDEN', "A manager's seed capital stays in the pool");
  }
  return rows;
}

/** After commit: the closes that raised cash moved marks; sweep those tickers. */
export async function sweepAfter(tickers: readonly string[]) {
  for (const t of new Set(tickers)) await liquidateAfterTrade(t);
}

export function toWithdrawalRecord(w: TWithdrawInTxResult['withdrawals'][number]) {
  return {
  id: w.id,
  depositId: w.depositId,
  poolId: w.poolId,
  shares: toNumber(w.shares),
  sharePrice: toNumber(w.sharePrice),
  value: toNumber(w.value),
  pnl: toNumber(w.pnl),
  performanceFee: toNumber(w.performanceFee),
  netAmount: toNumber(dec(w.value).minus(w.performanceFee)),
  remainingShares: toNumber(w.remainingShares),
  createdAt: w.createdAt.toISOString(),
};
}
type TWithdrawInTxResult = Awaited<ReturnType<typeof withdrawInTx>>;

/** The holder's balance now (when everything withdrawn went to the fee, no credit row told it). */
export async function balanceOf(tx: Tx, userId: string) {
  const [u] = await tx.select({ b: users.virtualBalance }).from(users).where(eq(users.id, userId));
  return dec(u?.b ?? '0');
}

/** POST /api/pools/{id}/withdraw: `shares` of one of the caller's deposits, partly or wholly. */
export async function withdrawFromPool(input: { caller: TCaller; poolId: string; depositId: string; shares: string | number }) {
  const result = await withTransaction(async (tx) => {
    const pool = await lockPool(tx, input.poolId);
    const [lot] = await lockLots(tx, { poolId: pool.id, userId: input.caller.userId, depositIds: [input.depositId] });
    const problem = withdrawProblem({ shares: lot!.remainingShares, costBasis: lot!.costBasis }, input.shares);
    if (problem) {
      throw new AppError('INSUFFICIENT_SHARES', problem, { requested: Number(input.shares), available: toNumber(lot!.remainingShares), depositId: lot!.id });
    }
    const r = await withdrawInTx(tx, { pool, userId: input.caller.userId, items: [{ lot: lot!, shares: String(input.shares) }] });
    return { ...r, balanceAfter: r.balanceAfter ?? (await balanceOf(tx, input.caller.userId)) };
  });
  await sweepAfter(result.closedTickers);
  return { withdrawal: toWithdrawalRecord(result.withdrawals[0]!), newBalance: toDecimalString(result.balanceAfter) };
}
