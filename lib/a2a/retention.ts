/**
 * What A2A keeps only for a while, and the tick's pruning of it (bounded storage, issue 29):
 * a task 24 hours after it was made, a payment request never paid 24 hours after it expired (a
 * late receipt then still hears PAYMENT_EXPIRED rather than PAYMENT_NOT_FOUND). A paid request is
 * the record of a transfer (its ledger rows name it) and stays. 24 hours, as an idempotency key
 * keeps its answer, each measured on the clock that stamped the row: tasks and requests carry game
 * time (lib/clock), so the tick passes its own.
 *
 * A leaf: it imports the database and nothing of lib/a2a's services, so the tick (below lib/a2a,
 * which reaches lib/game through lib/system) may call it (test/structure.test.ts).
 */
import 'server-only';
import { and, eq, lt } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { a2aPaymentRequests, a2aTasks } from '@/db/schema';
import { KEY_TTL_MS } from '@/lib/idempotency/key';

/** How long a task is kept. */
export const TASK_TTL_MS = KEY_TTL_MS;
/** How long an unpaid payment request is kept after it expired. */
export const PAYMENT_KEEP_EXPIRED_MS = KEY_TTL_MS;

/** Deletes the tasks made more than TASK_TTL_MS before `at` (the tick's game time); returns how many. */
export const deleteOldTasks = async (at: Date): Promise<number> => {
  const db = await getDb();
  const gone = await db
    .delete(a2aTasks)
    .where(lt(a2aTasks.createdAt, new Date(at.getTime() - TASK_TTL_MS)))
    .returning({ id: a2aTasks.id });
  return gone.length;
};

/** Deletes the requests never paid that expired more than PAYMENT_KEEP_EXPIRED_MS before `at`; returns how many. */
export const deleteExpiredPaymentRequests = async (at: Date): Promise<number> => {
  const db = await getDb();
  const gone = await db
    .delete(a2aPaymentRequests)
    .where(and(eq(a2aPaymentRequests.status, 'pending'), lt(a2aPaymentRequests.expiresAt, new Date(at.getTime() - PAYMENT_KEEP_EXPIRED_MS))))
    .returning({ id: a2aPaymentRequests.id });
  return gone.length;
};
