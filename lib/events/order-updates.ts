/**
 * `order_update` on the owner's `user:{userId}` channel and `order_book` on the `markets` channel
 * (issue 32), written in the transaction that changed the order, as every event is (outbox.ts).
 */
import 'server-only';
import type { DbOrTx } from '@/db/client';
import { now } from '@/lib/clock/clock';
import { sql } from 'drizzle-orm';
import { eventLog } from '@/db/schema';
import { enqueueOrderPushes } from '@/lib/a2a/push/outbox';
import { EVENTS_NOTIFY_CHANNEL, emitEvent } from './outbox';
import type { TOrderUpdate } from './types';

export type TOrderEvent = TOrderUpdate['data']['event'];

/** Tells the order's owner what happened to it (`order` is the order as the API answers it). */
export async function emitOrderUpdate(tx: DbOrTx, userId: string, event: TOrderEvent, order: Record<string, unknown>) {
  const timestamp = now().toISOString();
  await emitEvent(tx, `user:${userId}`, { type: 'order_update', data: { event, order, timestamp } });
  // An order an A2A task placed: its push configs hear it too (lib/a2a/push).
  await enqueueOrderPushes(tx, [{ event, order, timestamp }]);
}

/** Several updates at once, to their owners' channels, in one insert with one NOTIFY (the orders a trade filled). */
export async function emitOrderUpdates(tx: DbOrTx, updates: readonly { userId: string; event: TOrderEvent; order: Record<string, unknown> }[]) {
  if (!updates.length) return;
  const timestamp = now().toISOString();
  const rows = sql.join(
    updates.map((u) => sql`(${`user:${u.userId}`}, 'order_update', ${JSON.stringify({ event: u.event, order: u.order, timestamp })}::jsonb)`),
    sql`, `,
  );
  await tx.execute(sql`
    with e as (insert into ${eventLog} (channel, type, data) values ${rows} returning id)
    select pg_notify(${EVENTS_NOTIFY_CHANNEL}, '') from e limit 1`);
  await enqueueOrderPushes(tx, updates.map((u) => ({ event: u.event, order: u.order, timestamp })));
}

/** The book of a question changed: readers refetch it. */
export function emitOrderBookChanged(tx: DbOrTx, marketId: string) {
  return emitEvent(tx, 'markets', { type: 'order_book', data: { marketId, timestamp: now().toISOString() } });
}
