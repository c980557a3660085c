/**
 * Payments between players and agents, as ledger transfers. The payer asks to pay a recipient for
 * a service (`requestPayment`: a pending request, valid PAYMENT_TTL_MS); the payer's receipt
 * (`settlePayment`) settles it: in one transaction the request goes pending → paid under its row
 * lock, the payer is debited (never below zero) and the recipient credited, so parallel or
 * repeated receipts pay once. The recipient's receipt verifies without moving anything.
 * The tick deletes a request never paid a day after it expired (./retention.ts); a paid one is
 * the record of a transfer (its ledger rows name it) and stays. Carried today by A2A's
 * `a2a.paymentRequest` and `a2a.paymentReceipt` (lib/a2a/methods/payments.ts).
 */
import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import { getDb, rowsOf, withTransaction } from '@/db/client';
import { a2aPaymentRequests, users } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { credit, debit } from '@/lib/ledger/ledger';
import { dec, toDecimalString, toMoney } from '@/lib/money/decimal';
import { findUserByIdentifier } from '@/lib/users/queries';

/** How long a payment request may be settled. */
export const PAYMENT_TTL_MS = 15 * 60_000;

/** A pending request of the caller to pay `to` (id or username) `amount` for `service`. */
export async function requestPayment(input: { caller: TCaller; to: string; amount: number | string; service: string; metadata?: Record<string, unknown> }) {
  const db = await getDb();
  const recipient = await findUserByIdentifier(db, input.to);
  if (!recipient || recipient.isPoolAccount) throw new AppError('USER_NOT_FOUND', 'The recipient does not exist', { field: 'to', to: input.to });
  if (recipient.id === input.caller.userId) throw new AppError('CANNOT_PAY_SELF', 'You cannot pay yourself', { field: 'to' });
  const amount = toMoney(input.amount);
  if (!amount.gt(0)) throw new AppError('VALIDATION_ERROR', 'The amount must be at least 0.00000001', { field: 'amount' });
  const at = now();
  const [row] = await db
    .insert(a2aPaymentRequests)
    .values({
      payerId: input.caller.userId,
      recipientId: recipient.id,
      amount: toDecimalString(amount),
      service: input.service,
      metadata: input.metadata ?? null,
      status: 'pending',
      expiresAt: new Date(at.getTime() + PAYMENT_TTL_MS),
      createdAt: at,
    })
    .returning();
  return { requestId: row!.id, amount: toDecimalString(row!.amount), to: recipient.id, service: row!.service, status: 'pending' as const, expiresAt: row!.expiresAt.toISOString() };
}

/**
 * The receipt of a request: the payer's settles it (the money moves, once), the recipient's only
 * says whether it is paid. Anyone else's, or an unknown id, is PAYMENT_NOT_FOUND.
 */
export async function settlePayment(input: { caller: TCaller; requestId: string; txHash?: string }) {
  return withTransaction(async (tx) => {
    const [req] = await tx.select().from(a2aPaymentRequests).where(eq(a2aPaymentRequests.id, input.requestId)).for('update');
    const mine = req && (req.payerId === input.caller.userId || req.recipientId === input.caller.userId);
    if (!req || !mine) throw new AppError('PAYMENT_NOT_FOUND', 'No such payment request of yours', { requestId: input.requestId });
    const paid = { verified: true, requestId: req.id, status: 'paid' as const, amount: toDecimalString(req.amount) };
    if (req.status === 'paid') return { ...paid, message: 'Already paid: nothing moved again', transactionId: req.transactionId };
    if (req.recipientId === input.caller.userId) {
      return { verified: false, requestId: req.id, status: 'pending' as const, amount: toDecimalString(req.amount), message: 'Not paid yet', transactionId: null };
    }
    const at = now();
    if (req.expiresAt.getTime() <= at.getTime()) throw new AppError('PAYMENT_EXPIRED', 'This payment request has expired: make a new one', { requestId: req.id, expiresAt: req.expiresAt.toISOString() });
    // Both balances locked in id order, so opposite payments cannot deadlock.
    rowsOf(await tx.execute(sql`select id from ${users} where id in (${req.payerId}, ${req.recipientId}) order by id for no key update`));
    const reference = { type: 'a2a_payment', id: req.id };
    const out = await debit(tx, { userId: req.payerId, amount: req.amount, type: 'transfer_out', description: `A2A payment: ${req.service}`.slice(0, 200), reference });
    await credit(tx, { userId: req.recipientId, amount: req.amount, type: 'transfer_in', description: `A2A payment: ${req.service}`.slice(0, 200), reference });
    await tx
      .update(a2aPaymentRequests)
      .set({ status: 'paid', paidAt: at, transactionId: out.transactionId })
      .where(and(eq(a2aPaymentRequests.id, req.id), eq(a2aPaymentRequests.status, 'pending')));
    return { ...paid, message: `Paid ${toDecimalString(dec(req.amount))}`, transactionId: out.transactionId };
  });
}
