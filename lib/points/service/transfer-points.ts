/**
 * A points transfer from the caller to another player (POST /api/points/transfer): a positive
 * whole amount, never to oneself, never more than held (the sender's conditional update runs
 * under the row locks taken in id order, so parallel transfers cannot overspend or deadlock);
 * both sides get a row, in one transaction.
 */
import 'server-only';
import { withTransaction } from '@/db/client';
import type { TCaller } from '@/lib/auth/caller';
import { AppError } from '@/lib/errors/app-error';
import { applyPointsChange, lockUsersInOrder } from '../ledger';

export async function transferPoints(input: { caller: TCaller; toUserId: string; amount: number; reason?: string }) {
  const { caller, toUserId, amount } = input;
  if (toUserId === caller.userId) throw new AppError('CANNOT_TRANSFER_TO_SELF', 'You cannot transfer points to yourself');
  const reason = input.reason?.trim() || 'transfer';
  return withTransaction(async (tx) => {
    const found = await lockUsersInOrder(tx, [caller.userId, toUserId]);
    if (!found.has(toUserId)) throw new AppError('USER_NOT_FOUND', 'User not found', { userId: toUserId });
    const transferId = crypto.randomUUID();
    const out = await applyPointsChange(tx, {
      userId: caller.userId,
      amount: -amount,
      reason: 'transfer_out',
      metadata: { transferId, toUserId, note: reason },
    });
    await applyPointsChange(tx, {
      userId: toUserId,
      amount,
      reason: 'transfer_in',
      metadata: { transferId, fromUserId: caller.userId, note: reason },
    });
    return {
      transfer: { id: transferId, fromUserId: caller.userId, toUserId, amount, reason },
      pointsAfter: out!.pointsAfter,
    };
  });
}
