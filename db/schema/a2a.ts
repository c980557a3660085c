/** A2A: micropayment requests between agents and players (settled through lib/ledger), and tasks. */
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, money, timestamptz } from './columns';
import { users } from './users';

/**
 * A payment the payer asked to make to the recipient for a service; settled once by the payer's
 * receipt (status pending → paid in the statement that moves the money), refused after expiry.
 */
export const a2aPaymentRequests = pgTable(
  'a2a_payment_requests',
  {
    id: idColumn(),
    payerId: text('payer_id')
      .notNull()
      .references(() => users.id),
    recipientId: text('recipient_id')
      .notNull()
      .references(() => users.id),
    amount: money('amount').notNull(),
    service: text('service').notNull(),
    metadata: jsonb('metadata').$type<Record<string, unknown>>(),
    status: text('status', { enum: ['pending', 'paid'] }).notNull(),
    /** The payer's transfer_out row, once paid. */
    transactionId: text('transaction_id'),
    expiresAt: timestamptz('expires_at').notNull(),
    paidAt: timestamptz('paid_at'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [
    index('a2a_payment_requests_payer_idx').on(t.payerId, t.createdAt),
    index('a2a_payment_requests_recipient_idx').on(t.recipientId, t.createdAt),
    // The tick's pruning of unpaid requests past their expiry.
    index('a2a_payment_requests_pending_expiry_idx').on(t.expiresAt).where(sql`status = 'pending'`),
  ],
);

/**
 * A task made by message/send: the method the message asked for, run at once for its owner, with
 * its result (completed) or error (failed). Stored so tasks/get answers on any instance; only what
 * tasks/get answers, at most a few KiB (lib/a2a/service/tasks.ts), and pruned by the tick after 24 hours.
 */
export const a2aTasks = pgTable(
  'a2a_tasks',
  {
    id: idColumn(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id),
    contextId: text('context_id').notNull(),
    state: text('state', { enum: ['completed', 'failed'] }).notNull(),
    method: text('method').notNull(),
    /**
     * The exact JSON text of `{"result": …}` or `{"error": …}` as first answered (text, not jsonb,
     * so tasks/get gives back the same bytes), or `{"omitted": {"bytes": n}}` for a result over the cap.
     */
    outcome: text('outcome').notNull(),
    /** The order the call placed (its result's `order.id`), whose updates reach the task's push configs. */
    orderId: text('order_id'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [
    index('a2a_tasks_owner_idx').on(t.ownerId, t.createdAt),
    index('a2a_tasks_created_idx').on(t.createdAt),
    index('a2a_tasks_order_idx').on(t.orderId).where(sql`order_id is not null`),
  ],
);

/**
 * A2A 1.0 push notifications: where to POST a task's updates (lib/a2a/push). At most a few per
 * caller (and per API key), gone with their task. `secret` keys the HMAC of every delivery and is
 * answered once, at creation.
 */
export const a2aPushConfigs = pgTable(
  'a2a_push_configs',
  {
    id: idColumn(),
    /** The id A2A names it by within its task (the client's, or the row id). */
    configId: text('config_id').notNull(),
    taskId: text('task_id')
      .notNull()
      .references(() => a2aTasks.id, { onDelete: 'cascade' }),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id),
    /** The API key the config was made with, if any: the cap counts per key. */
    apiKeyId: text('api_key_id'),
    url: text('url').notNull(),
    token: text('token'),
    authentication: jsonb('authentication').$type<{ scheme: string; credentials?: string }>(),
    secret: text('secret').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [uniqueIndex('a2a_push_configs_task_config_idx').on(t.taskId, t.configId), index('a2a_push_configs_owner_idx').on(t.ownerId, t.apiKeyId)],
);

/**
 * The outbox of push deliveries: one POST each, retried with backoff (lib/a2a/push/deliver.ts),
 * kept 24 hours after it was delivered or given up (the tick's retention).
 */
export const a2aPushDeliveries = pgTable(
  'a2a_push_deliveries',
  {
    id: idColumn(),
    configId: text('config_id')
      .notNull()
      .references(() => a2aPushConfigs.id, { onDelete: 'cascade' }),
    ownerId: text('owner_id').notNull(),
    /** The JSON body to POST (an A2A 1.0 StreamResponse). */
    body: text('body').notNull(),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamptz('next_attempt_at').notNull(),
    lastError: text('last_error'),
    createdAt: timestamptz('created_at').notNull(),
    finishedAt: timestamptz('finished_at'),
  },
  (t) => [
    index('a2a_push_deliveries_due_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`),
    index('a2a_push_deliveries_owner_idx').on(t.ownerId, t.createdAt).where(sql`status = 'pending'`),
    index('a2a_push_deliveries_finished_idx').on(t.finishedAt),
  ],
);

export type TA2aTaskRow = typeof a2aTasks.$inferSelect;
export type TA2aPushConfigRow = typeof a2aPushConfigs.$inferSelect;
export type TA2aPushDeliveryRow = typeof a2aPushDeliveries.$inferSelect;
export type TA2aPaymentRequestRow = typeof a2aPaymentRequests.$inferSelect;
