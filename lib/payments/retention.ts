/**
 * The tick's pruning of payment requests (bounded storage): a request never paid is deleted 24
 * hours after it expired (a late receipt meanwhile still hears PAYMENT_EXPIRED rather than
 * PAYMENT_NOT_FOUND). A paid request is the record of a transfer (its ledger rows name it) and
 * stays. 24 hours, as an idempotency key keeps its answer, measured on the clock that stamped the
 * row: requests carry game time (lib/clock), so the tick passes its own.
 *
 * A leaf: it imports the database and the idempotency key's lifetime, nothing of the payment
 * service, so the tick may call it whatever the service comes to import.
 */
import 'server-only';
import { and, eq, lt } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { a2aPaymentRequests } from '@/db/schema';
import { KEY_TTL_MS } from '@/lib/idempotency/key';

/** How long an unpaid payment request is kept after it expired. */
export const PAYMENT_KEEP_EXPIRED_MS = KEY_TTL_MS;

/** Deletes the requests never paid that expired more than PAYMENT_KEEP_EXPIRED_MS before `at`; returns how many. */
export async function deleteExpiredPaymentRequests(at: Date): Promise<number> {
  const db = await getDb();
  const gone = await db
    .delete(a2aPaymentRequests)
    .where(and(eq(a2aPaymentRequests.status, 'pending'), lt(a2aPaymentRequests.expiresAt, new Date(at.getTime() - PAYMENT_KEEP_EXPIRED_MS))))
    .returning({ id: a2aPaymentRequests.id });
  return gone.length;
}
