/**
 * The transactional outbox behind realtime delivery (SSE). A change and the event announcing it
 * are written in the same database transaction, so an event exists exactly when its change
 * committed. Readers page by (tx_id, id), never by id alone: ids are taken when a row is
 * inserted but become visible when its transaction commits, so a smaller id can appear after a
 * larger one. Reading only rows with tx_id < pg_snapshot_xmin(pg_current_snapshot()) (every
 * transaction below that has ended) and ordering by (tx_id, id) gives a cursor that never skips
 * a late commit. Old rows are pruned by the game tick.
 */
import { sql } from 'drizzle-orm';
import { bigserial, customType, index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';

/** PostgreSQL's 64-bit transaction id (pg_current_xact_id()); read as text, compared in SQL. */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });

export const eventLog = pgTable(
  'event_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    txId: xid8('tx_id')
      .notNull()
      .default(sql`pg_current_xact_id()`),
    channel: text('channel').notNull(),
    type: text('type').notNull(),
    data: jsonb('data').notNull(),
    createdAt: timestamptz('created_at')
      .notNull()
      .default(sql`now()`),
  },
  (t) => [index('event_log_tx_id_idx').on(t.txId, t.id), index('event_log_created_idx').on(t.createdAt)],
);

export type TEventLogRow = typeof eventLog.$inferSelect;
