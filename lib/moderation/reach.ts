/**
 * Reaching another person: a follow, a reply, a like, a share, a message. Refused with
 * USER_BLOCKED (403) when a block stands between the two, in either direction; the rule itself
 * lives in visibility.ts.
 */
import 'server-only';
import { rowsOf, type DbOrTx } from '@/db/client';
import { AppError } from '@/lib/errors/app-error';
import { blockBetweenQuery } from './visibility';

/** Whether a block stands between `a` and `b`, either way. */
export async function isBlockedBetween(db: DbOrTx, a: string, b: string): Promise<boolean> {
  if (a === b) return false;
  const [r] = rowsOf<{ blocked: boolean }>(await db.execute(blockBetweenQuery(a, b)));
  return !!r?.blocked;
}

/** Throws USER_BLOCKED when a block stands between the caller and `otherId`. */
export async function assertCanReach(db: DbOrTx, callerId: string, otherId: string, what: string) {
  if (await isBlockedBetween(db, callerId, otherId)) {
    throw new AppError('USER_BLOCKED', `You cannot ${what}: one of you has blocked the other`, { userId: otherId });
  }
}
