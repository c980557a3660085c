/** Reads of the points ledger: a player's history (newest first) and the once-only awards paid. */
import 'server-only';
import { and, desc, eq, like, lt } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { pointsAwards, pointsTransactions } from '@/db/schema';

export function listPointsTransactions(db: DbOrTx, userId: string, opts: { limit: number; beforeSeq?: number }) {
  return db
    .select()
    .from(pointsTransactions)
    .where(
      opts.beforeSeq === undefined
        ? eq(pointsTransactions.userId, userId)
        : and(eq(pointsTransactions.userId, userId), lt(pointsTransactions.seq, opts.beforeSeq)),
    )
    .orderBy(desc(pointsTransactions.seq))
    .limit(opts.limit);
}

/** The milestone awards a player has been paid, by key. */
export function listMilestoneAwards(db: DbOrTx, userId: string) {
  return db
    .select({ awardKey: pointsAwards.awardKey, createdAt: pointsAwards.createdAt })
    .from(pointsAwards)
    .where(and(eq(pointsAwards.userId, userId), like(pointsAwards.awardKey, 'milestone:%')));
}
