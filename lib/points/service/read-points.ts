/** A player's points: the balance, the history (newest first, paged by seq) and the milestone checklist. Owner or administrator. */
import 'server-only';
import { eq } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { users } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { AppError } from '@/lib/errors/app-error';
import { toPointsTransactionDto } from '../dto';
import { MILESTONE_NAMES, MILESTONES, milestoneAwardKey } from '../milestones';
import { listMilestoneAwards, listPointsTransactions } from '../queries';

export async function readPoints(input: { caller: TCaller; userId: string; limit: number; before?: number }) {
  const { caller, userId } = input;
  if (userId !== caller.userId && !caller.isAdmin) throw new AppError('FORBIDDEN', 'You can only read your own points');
  const db = await getDb();
  const [user] = await db.select({ points: users.reputationPoints }).from(users).where(eq(users.id, userId));
  if (!user) throw new AppError('USER_NOT_FOUND', 'User not found', { userId });
  const [rows, awards] = await Promise.all([
    listPointsTransactions(db, userId, { limit: input.limit + 1, beforeSeq: input.before }),
    listMilestoneAwards(db, userId),
  ]);
  const page = rows.slice(0, input.limit);
  const paidAt = new Map(awards.map((a) => [a.awardKey, a.createdAt]));
  return {
    points: user.points,
    transactions: page.map(toPointsTransactionDto),
    nextCursor: rows.length > input.limit ? page[page.length - 1]!.seq : null,
    milestones: MILESTONE_NAMES.map((m) => {
      const at = paidAt.get(milestoneAwardKey(m));
      return { milestone: m, label: MILESTONES[m].label, points: MILESTONES[m].points, awarded: !!at, awardedAt: at?.toISOString() ?? null };
    }),
  };
}
