/**
 * What A2A keeps only for a while, and the tick's pruning of it (bounded storage, issue 29): a
 * task 24 hours after it was made, as an idempotency key keeps its answer, measured on the clock
 * that stamped the row: tasks carry game time (lib/clock), so the tick passes its own. (Payment
 * requests are lib/payments', pruned by lib/payments/retention.ts.) A push delivery (lib/a2a/push)
 * 24 hours after it was delivered or given up; a task's push configs and their deliveries go with
 * the task (the foreign keys cascade).
 *
 * A leaf: it imports the database and nothing of lib/a2a's services, so the tick (below lib/a2a,
 * which reaches lib/game through lib/system) may call it (test/structure.test.ts).
 */
import 'server-only';
import { and, inArray, lt } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { a2aPushDeliveries, a2aTasks } from '@/db/schema';
import { KEY_TTL_MS } from '@/lib/idempotency/key';

/** How long a task is kept. */
export const TASK_TTL_MS = KEY_TTL_MS;

/**
 * Deletes the tasks made more than TASK_TTL_MS before `at` (the tick's game time), and the push
 * deliveries finished that long ago; returns how many tasks.
 */
export async function deleteOldTasks(at: Date): Promise<number> {
  const db = await getDb();
  await db
    .delete(a2aPushDeliveries)
    .where(and(inArray(a2aPushDeliveries.status, ['delivered', 'failed']), lt(a2aPushDeliveries.finishedAt, new Date(at.getTime() - TASK_TTL_MS))));
  const gone = await db
    .delete(a2aTasks)
    .where(lt(a2aTasks.createdAt, new Date(at.getTime() - TASK_TTL_MS)))
    .returning({ id: a2aTasks.id });
  return gone.length;
}
