/**
 * Writing events: `emitEvent(tx, channel, event)` appends to the outbox (db/schema/events.ts) in
 * the caller's transaction and asks PostgreSQL to NOTIFY listeners, which it does only when that
 * transaction commits. Nothing is announced for a change that rolled back, and nothing committed
 * goes unannounced. Delivery (LISTEN, fan-out to SSE subscribers, replay) lives beside this file.
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { eventLog } from '@/db/schema';
import type { TChannel, TChannelEvent } from './bus';

/** The NOTIFY channel every instance LISTENs on; the payload is empty, listeners read the log. */
export const EVENTS_NOTIFY_CHANNEL = 'playmoney_events';

export const emitEvent = async (tx: DbOrTx, channel: TChannel, event: TChannelEvent) => {
  await tx.execute(sql`
    with e as (
      insert into ${eventLog} (channel, type, data)
      values (${channel}, ${event.type}, ${JSON.stringify(event.data)}::jsonb)
      returning id
    )
    select pg_notify(${EVENTS_NOTIFY_CHANNEL}, '') from e`);
};
