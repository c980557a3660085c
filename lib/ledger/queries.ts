/** Read side of the ledger: balance summary and transaction history. Reads only. */
import 'server-only';
import { desc, eq } from 'drizzle-orm';
import { balanceTransactions, users } from '@/db/schema';
import type { DbOrTx } from '@/db/client';
import { toDecimalString } from '@/lib/money/decimal';

export type TTransactionDto = {
  id: string;
  type: string;
  amount: string;
  balanceBefore: string;
  balanceAfter: string;
  description: string;
  referenceType: string | null;
  referenceId: string | null;
  createdAt: string;
  timestamp: string;
};

export const toTransactionDto = (r: typeof balanceTransactions.$inferSelect): TTransactionDto => ({
  id: r.id,
  type: r.type,
  amount: toDecimalString(r.amount),
  balanceBefore: toDecimalString(r.balanceBefore),
  balanceAfter: toDecimalString(r.balanceAfter),
  description: r.description,
  referenceType: r.referenceType,
  referenceId: r.referenceId,
  createdAt: r.createdAt.toISOString(),
  timestamp: r.createdAt.toISOString(),
});

/** The newest transactions of a user, newest first. */
export const findTransactions = async (db: DbOrTx, userId: string, opts: { limit: number; offset: number }) => {
  const rows = await db
    .select()
    .from(balanceTransactions)
    .where(eq(balanceTransactions.userId, userId))
    .orderBy(desc(balanceTransactions.seq))
    .limit(opts.limit)
    .offset(opts.offset);
  return rows.map(toTransactionDto);
};

export const findBalanceSummary = async (db: DbOrTx, userId: string) => {
  const [row] = await db
    .select({
      balance: users.virtualBalance,
      totalDeposited: users.totalDeposited,
      totalWithdrawn: users.totalWithdrawn,
      lifetimePnL: users.lifetimePnL,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) return undefined;
  return {
    balance: toDecimalString(row.balance),
    totalDeposited: toDecimalString(row.totalDeposited),
    totalWithdrawn: toDecimalString(row.totalWithdrawn),
    lifetimePnL: toDecimalString(row.lifetimePnL),
  };
};
