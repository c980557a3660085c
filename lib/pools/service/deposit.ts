/**
 * Depositing into a pool: one transaction that locks the pool, values it (lib/pools/holdings,
 * one snapshot), prices the shares with the pure quoteDeposit, moves the money through the
 * ledger (the depositor's pool_deposit debit, the pool account's pool_deposit credit), writes the
 * lot and the pool's share count, and records the NAV. A failure anywhere leaves nothing behind.
 */
import 'server-only';
import { withTransaction, type Tx } from '@/db/client';
import { poolDeposits, type TPoolDepositRow, type TPoolRow } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { credit, debit } from '@/lib/ledger/ledger';
import { parseAmount } from '@/lib/money/amount';
import { dec, toDecimalString, toNumber } from '@/lib/money/decimal';
import { loadHoldingsOf } from '../holdings';
import { depositProblem, quoteDeposit } from '../math';
import { lockPool, recordNav } from './shared';

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

/** POST /api/pools/{id}/deposit: the caller buys shares at the current share price. */
export async function depositToPool(input: { caller: TCaller; poolId: string; amount: string | number }) {
  const { lot, balanceAfter } = await withTransaction(async (tx) => {
    const pool = await lockPool(tx, input.poolId);
    return depositInTx(tx, { pool, userId: input.caller.userId, amount: input.amount });
  });
  return { deposit: toDepositRecord(lot), newBalance: toDecimalString(balanceAfter) };
}
