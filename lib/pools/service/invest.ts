/**
 * Investing with an NPC actor (POST /api/npc/{actorId}/invest): a deposit into the pool the actor
 * manages, or a withdrawal of an amount from the caller's lots there, oldest first (the pure
 * planWithdrawByAmount picks the shares), through the same deposit and withdrawal code as the
 * pool routes, in one transaction.
 */
import 'server-only';
import { and, asc, eq, gt } from 'drizzle-orm';
import { withTransaction } from '@/db/client';
import { poolDeposits } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { AppError } from '@/lib/errors/app-error';
import { dec, toDecimalString, toNumber } from '@/lib/money/decimal';
import { loadHoldingsOf } from '../holdings';
import { planWithdrawByAmount, sharePriceOf } from '../math';
import { depositInTx } from './deposit';
import { findActorPoolId, lockPool } from './shared';
import { balanceOf, raiseCash, sweepAfter, withdrawInTx } from './withdraw';

/** Cash raised for an amount withdrawal, over the amount: closing a perp pays its equity less fee and impact. */
const RAISE_HEADROOM = '1.01';


export async function investWithActor(input: { caller: TCaller; actorId: string; action: 'deposit' | 'withdraw'; amount: string | number }) {
  const { caller } = input;
  const result = await withTransaction(async (tx) => {
    const { poolId } = await findActorPoolId(tx, input.actorId);
    const pool = await lockPool(tx, poolId);
    if (input.action === 'deposit') {
      const { lot, balanceAfter } = await depositInTx(tx, { pool, userId: caller.userId, amount: input.amount });
      return {
        transaction: {
          id: lot.id,
          type: 'deposit' as const,
          amount: toNumber(lot.amount),
          shares: toNumber(lot.shares),
          poolId: pool.id,
          sharePrice: toNumber(lot.sharePrice),
          pnl: 0,
          performanceFee: 0,
        },
        balanceAfter,
        closedTickers: [] as string[],
      };
    }
    const lots = await tx
      .select()
      .from(poolDeposits)
      .where(and(eq(poolDeposits.poolId, pool.id), eq(poolDeposits.userId, caller.userId), eq(poolDeposits.isSeed, false), gt(poolDeposits.remainingShares, '0')))
      .orderBy(asc(poolDeposits.createdAt), asc(poolDeposits.id))
      .for('update');
    let holdings = await loadHoldingsOf(tx, pool.accountUserId);
    // Raise the cash first when it is short, then plan at the price after the closes: the shares
    // planned then pay at least the amount asked (a plan made before would pay less once closing
    // cost the pool its fees and impact). A little headroom covers what closing costs.
    const raised: string[] = [];
    if (holdings.cash.lt(input.amount) && holdings.perps.length > 0) {
      raised.push(...(await raiseCash(tx, pool, holdings, dec(input.amount).times(RAISE_HEADROOM))));
      holdings = await loadHoldingsOf(tx, pool.accountUserId);
    }
    const state = { nav: holdings.nav, totalShares: pool.totalShares };
    const plan = planWithdrawByAmount(state, lots.map((l) => ({ id: l.id, shares: l.remainingShares, costBasis: l.costBasis })), input.amount);
    if (!plan || plan.length === 0) {
      const held = lots.reduce((s, l) => s.plus(l.remainingShares), dec(0));
      throw new AppError('INSUFFICIENT_SHARES', 'Your deposits in this pool are worth less than that', {
        requested: Number(input.amount),
        available: toNumber(held.times(sharePriceOf(state)).toDecimalPlaces(8, 1)),
      });
    }
    const items = plan.map((p) => ({ lot: lots.find((l) => l.id === p.id)!, shares: p.shares }));
    const r = await withdrawInTx(tx, { pool, userId: caller.userId, items });
    const sum = (f: (q: (typeof r.quotes)[number]) => ReturnType<typeof dec>) => r.quotes.reduce((s, q) => s.plus(f(q)), dec(0));
    return {
      transaction: {
        id: r.withdrawals[0]!.id,
        type: 'withdraw' as const,
        amount: toNumber(sum((q) => q.value)),
        shares: toNumber(sum((q) => q.shares)),
        poolId: pool.id,
        sharePrice: toNumber(r.quotes[0]!.sharePrice),
        pnl: toNumber(sum((q) => q.pnl)),
        performanceFee: toNumber(sum((q) => q.performanceFee)),
      },
      balanceAfter: r.balanceAfter ?? (await balanceOf(tx, caller.userId)),
      closedTickers: [...raised, ...r.closedTickers],
    };
  });
  await sweepAfter(result.closedTickers);
  return { transaction: result.transaction, newBalance: toDecimalString(result.balanceAfter) };
}
