/**
 * An administrator's award or correction (POST /api/users/points/award): any whole amount but
 * zero, never taking a player below zero points. The route admits administrators only.
 */
import 'server-only';
import { withTransaction } from '@/db/client';
import type { TCaller } from '@/lib/auth/caller';
import { toPointsTransactionDto } from '../dto';
import { applyPointsChange } from '../ledger';

export async function awardPoints(input: {
  caller: TCaller;
  userId: string;
  amount: number;
  reason: string;
  metadata?: Record<string, unknown>;
}) {
  return withTransaction(async (tx) => {
    const paid = await applyPointsChange(tx, {
      userId: input.userId,
      amount: input.amount,
      reason: input.reason,
      metadata: { ...input.metadata, awardedBy: input.caller.userId, kind: input.amount > 0 ? 'award' : 'correction' },
    });
    // Without an award key a change always applies or throws.
    return { transaction: toPointsTransactionDto(paid!) };
  });
}
