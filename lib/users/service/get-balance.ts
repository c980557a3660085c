/** A user's balance and history: readable by the owner and by administrators only. */
import 'server-only';
import { getDb } from '@/db/client';
import type { TCaller } from '@/lib/auth/caller';
import { AppError } from '@/lib/errors/app-error';
import { findBalanceSummary, findTransactions } from '@/lib/ledger/queries';
import { findUserByIdentifier } from '../queries';

/**
 * `userId` (id, username or wallet address) names whose balance; someone else's is 403 unless the
 * caller is an administrator. The answer with the owner's id: lib/equity adds the account's
 * numbers (its lifetimePnL is the one P&L).
 */
export async function getBalance(input: { caller: TCaller; userId: string; limit: number; offset: number }) {
  const { caller } = input;
  const db = await getDb();
  const target = await findUserByIdentifier(db, input.userId);
  if (target && target.id !== caller.userId && !caller.isAdmin) {
    throw new AppError('FORBIDDEN', 'You can only read your own balance');
  }
  if (!target) {
    if (!caller.isAdmin) throw new AppError('FORBIDDEN', 'You can only read your own balance');
    throw new AppError('NOT_FOUND', 'Balance not found', { userId: input.userId });
  }
  const summary = await findBalanceSummary(db, target.id);
  if (!summary) throw new AppError('NOT_FOUND', 'Balance not found', { userId: input.userId });
  const transactions = await findTransactions(db, target.id, { limit: input.limit, offset: input.offset });
  return { ownerId: target.id, answer: { ...summary, transactions } };
}
