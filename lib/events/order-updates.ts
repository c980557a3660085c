/**
 * `order_update` on the owner's `user:{userId}` channel and `order_book` on the `markets` channel
 * (issue 32), written in the transaction that changed the order, as every event is (outbox.ts).
 */
import 'server-only';
import type { DbOrTx } from '@/db/client';
import { now } from '@/lib/clock/clock';
import { emitEvent, emitEvents } from './outbox';
import type { TOrderUpdate } from './types';

export type TOrderEvent = TOrderUpdate['data']['event'];

/** Tells the order's owner what happened to it (`order` is the order as the API answers it). */
export function emitOrderUpdate(tx: DbOrTx, userId: string, event: TOrderEvent, order: Record<string, unknown>) {
  return emitEvent(tx, `user:${userId}`, { type: 'order_update', data: { event, order, timestamp: now().toISOString() } });
}

/** Several updates at once (one insert), e.g. the resting orders a trade filled. */
export async function emitOrderUpdates(tx: DbOrTx, updates: readonly { userId: string; event: TOrderEvent; order: Record<string, unknown> }[]) {
  const timestamp = now().toISOString();
  const byUser = new Map<string, TOrderUpdate[]>();
  for (const u of updates) {
    const list = byUser.get(u.userId) ?? [];
    list.push({ type: 'order_update', data: { event: u.event, order: u.order, timestamp } });
    byUser.set(u.userId, list);
  }
  for (const [userId, list] of byUser) await emitEvents(tx, `user:${userId}`, list);
}

/** The book of a question changed: readers refetch it. */
export function emitOrderBookChanged(tx: DbOrTx, marketId: string) {
  return emitEvent(tx, 'markets', { type: 'order_book', data: { marketId, timestamp: now().toISOString() } });
}
