/**
 * The outbox of A2A push deliveries (issue 33): what is to be POSTed, written in the transaction
 * that made the news, so a delivery exists exactly when its change does. `enqueueOrderPushes` is
 * called by lib/events/order-updates.ts with every order update: an order a task placed (the task
 * row's `order_id`) reaches that task's push configs. At most MAX_PENDING_PER_OWNER undelivered
 * deliveries per caller: older ones are dropped.
 *
 * A leaf: it imports the database and the clock only, never the rest of lib/a2a (which sits above
 * lib/events), so the event writers may call it (test/structure.test.ts). Delivery itself is
 * deliver.ts's; it registers a kick here that runs shortly after an enqueue, once the writing
 * transaction has had time to commit (the tick retries whatever it missed).
 */
import 'server-only';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { a2aPushConfigs, a2aPushDeliveries, a2aTasks } from '@/db/schema';
import { now } from '@/lib/clock/clock';

/** Undelivered deliveries kept per caller; past it, the oldest go. */
export const MAX_PENDING_PER_OWNER = 100;

const KICK = Symbol.for('playmoney.a2a.pushKick');
const IDLE = Symbol.for('playmoney.a2a.pushIdle');
type TKickHolder = { [KICK]?: () => void; [IDLE]?: () => Promise<void> };

/**
 * deliver.ts's kick, run after an enqueue (one per process, whichever bundle loaded it), and how to
 * wait for a run in flight.
 */
export function setPushKick(kick: (() => void) | undefined, idle?: () => Promise<void>) {
  (globalThis as TKickHolder)[KICK] = kick;
  (globalThis as TKickHolder)[IDLE] = idle;
}

/** Whether kicks are on (a run in flight stops between rounds once they are off). */
export function pushKicksOn() {
  return (globalThis as TKickHolder)[KICK] !== undefined;
}

/**
 * Turns the kicks off and waits for a run in flight: before its database closes, a process (a test
 * file's teardown) stops background deliveries, or one would open a connection as the pool closes.
 */
export async function stopPushKicks() {
  const holder = globalThis as TKickHolder;
  const idle = holder[IDLE];
  holder[KICK] = undefined;
  await idle?.();
}

/** Asks the registered deliverer to run soon (after the enqueuing transaction commits). */
export function kickPushes(delayMs = 150) {
  if (!pushKicksOn()) return;
  // Read again when the timer fires: kicks turned off meanwhile (stopPushKicks) run nothing.
  setTimeout(() => (globalThis as TKickHolder)[KICK]?.(), delayMs).unref?.();
}

/** Queues one body for each of the given configs (rows of a2a_push_configs) and trims their owners' backlogs. */
export async function enqueuePushes(tx: DbOrTx, items: readonly { configRowId: string; ownerId: string; body: string }[]) {
  if (!items.length) return;
  const at = now();
  await tx.insert(a2aPushDeliveries).values(
    items.map((i) => ({ configId: i.configRowId, ownerId: i.ownerId, body: i.body, status: 'pending' as const, attempts: 0, nextAttemptAt: at, createdAt: at })),
  );
  for (const ownerId of new Set(items.map((i) => i.ownerId))) {
    await tx.execute(sql`
      delete from ${a2aPushDeliveries} where owner_id = ${ownerId} and status = 'pending' and id in (
        select id from ${a2aPushDeliveries} where owner_id = ${ownerId} and status = 'pending'
        order by created_at desc, id desc offset ${MAX_PENDING_PER_OWNER})`);
  }
  kickPushes();
}

/** The 1.0 task state of a stored task (completed or failed), as A2A 1.0 writes it. */
const V1_STATE: Record<string, string> = { completed: 'TASK_STATE_COMPLETED', failed: 'TASK_STATE_FAILED' };

/**
 * Order updates for orders A2A tasks placed: each becomes a StreamResponse `statusUpdate` of the
 * task (its state unchanged, the update in `metadata.orderUpdate`) for each of the task's configs.
 */
export async function enqueueOrderPushes(tx: DbOrTx, updates: readonly { event: string; order: Record<string, unknown>; timestamp: string }[]) {
  const ids = [...new Set(updates.map((u) => u.order.id).filter((id): id is string => typeof id === 'string'))];
  if (!ids.length) return;
  const targets = await tx
    .select({ configRowId: a2aPushConfigs.id, ownerId: a2aPushConfigs.ownerId, taskId: a2aTasks.id, contextId: a2aTasks.contextId, state: a2aTasks.state, orderId: a2aTasks.orderId })
    .from(a2aPushConfigs)
    .innerJoin(a2aTasks, eq(a2aPushConfigs.taskId, a2aTasks.id))
    .where(and(inArray(a2aTasks.orderId, ids)));
  if (!targets.length) return;
  const items = targets.flatMap((t) =>
    updates
      .filter((u) => u.order.id === t.orderId)
      .map((u) => ({
        configRowId: t.configRowId,
        ownerId: t.ownerId,
        body: JSON.stringify({
          statusUpdate: {
            taskId: t.taskId,
            contextId: t.contextId,
            status: { state: V1_STATE[t.state] ?? 'TASK_STATE_UNSPECIFIED', timestamp: u.timestamp },
            metadata: { orderUpdate: { event: u.event, order: u.order } },
          },
        }),
      })),
  );
  await enqueuePushes(tx, items);
}
