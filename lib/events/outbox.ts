/**
 * Writing events: `emitEvent(tx, channel, event)` appends to the outbox (db/schema/events.ts) in
 * the caller's transaction and asks PostgreSQL to NOTIFY listeners, which it does only when that
 * transaction commits. Nothing is announced for a change that rolled back, and nothing committed
 * goes unannounced. Statements that do a whole write in one SQL statement (the buy, the perps
 * open/close and the liquidation sweep) splice `outboxCtes` into their CTE chain instead.
 * Delivery (LISTEN, fan-out to SSE subscribers, replay) lives in lib/realtime.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { eventLog } from '@/db/schema';
import type { TChannel, TChannelEvent } from './types';

/** The NOTIFY channel every instance LISTENs on; the payload is empty, listeners read the log. */
export const EVENTS_NOTIFY_CHANNEL = 'playmoney_events';

/** Appends events to the outbox in order, in one statement, with one NOTIFY (a tick writes several). */
export async function emitEvents(tx: DbOrTx, channel: TChannel, events: readonly TChannelEvent[]) {
  if (events.length === 0) return;
  const rows = sql.join(
    events.map((e) => sql`(${channel}, ${e.type}, ${JSON.stringify(e.data)}::jsonb)`),
    sql`, `,
  );
  await tx.execute(sql`
    with e as (
      insert into ${eventLog} (channel, type, data) values ${rows}
      returning id
    )
    select pg_notify(${EVENTS_NOTIFY_CHANNEL}, '') from e limit 1`);
}

export function emitEvent(tx: DbOrTx, channel: TChannel, event: TChannelEvent) {
  return emitEvents(tx, channel, [event]);
}

/**
 * Two CTEs for a one-statement write: `<name>` inserts one event per row of `rows` (a select
 * yielding a jsonb column named `data`), `<name>_notify` NOTIFYs when it inserted any. A
 * data-modifying CTE always runs, but a SELECT CTE runs only when referenced, so the statement's
 * final select must include `outboxNotified(name)`.
 */
export function outboxCtes(name: string, channel: TChannel, type: string, rows: SQL) {
  const cte = sql.raw(name);
  return sql`${cte} as (
      insert into ${eventLog} (channel, type, data)
      select ${channel}, ${type}, r.data from (${rows}) r
      returning id
    ),
    ${sql.raw(`${name}_notify`)} as (select pg_notify(${EVENTS_NOTIFY_CHANNEL}, '') as n from ${cte} limit 1)`;
}

/**
 * `outboxCtes` for events whose channel differs per row (a sweep's `order_update` to each owner's
 * `user:{userId}`): `rows` yields a text column `channel` (a valid TChannel) and the jsonb `data`.
 */
export function outboxChannelCtes(name: string, type: string, rows: SQL) {
  const cte = sql.raw(name);
  return sql`${cte} as (
      insert into ${eventLog} (channel, type, data)
      select r.channel, ${type}, r.data from (${rows}) r
      returning id
    ),
    ${sql.raw(`${name}_notify`)} as (select pg_notify(${EVENTS_NOTIFY_CHANNEL}, '') as n from ${cte} limit 1)`;
}

/** The final-select column that makes `outboxCtes(name, …)` NOTIFY. */
export function outboxNotified(name: string) {
  return sql`(select count(*) from ${sql.raw(`${name}_notify`)})`;
}
