/** Public shapes of points: the specification's points transaction {id, amount, pointsBefore, pointsAfter, reason}. */
import type { TPointsTransactionRow } from '@/db/schema';
import type { TPointsChangeResult } from './ledger';

export type TPointsTransactionDto = {
  id: string;
  amount: number;
  pointsBefore: number;
  pointsAfter: number;
  reason: string;
  createdAt: string;
};

export function toPointsTransactionDto(t: TPointsTransactionRow | TPointsChangeResult): TPointsTransactionDto {
  return {
  id: 'transactionId' in t ? t.transactionId : t.id,
  amount: t.amount,
  pointsBefore: t.pointsBefore,
  pointsAfter: t.pointsAfter,
  reason: t.reason,
  createdAt: t.createdAt.toISOString(),
};
}
