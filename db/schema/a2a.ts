/** A2A: micropayment requests between agents and players (settled through lib/ledger), and tasks. */
import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
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
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [index('a2a_tasks_owner_idx').on(t.ownerId, t.createdAt), index('a2a_tasks_created_idx').on(t.createdAt)],
);

export type TA2aTaskRow = typeof a2aTasks.$inferSelect;
export type TA2aPaymentRequestRow = typeof a2aPaymentRequests.$inferSelect;
