/**
 * Idempotent writes (README "Idempotent writes"; issue 20). A money or points request sent with an
 * `Idempotency-Key` runs inside one request transaction (db/client.ts withRequestTransaction)
 * that first claims the key, then runs the operation (every statement of its services joins the
 * transaction), then stores the answer. Effect and stored answer therefore commit together or not
 * at all: a crash between them cannot leave a trade without its answer, or an answer without its
 * trade.
 *
 * A repeat of the key, per caller:
 *  - after the first committed: the stored answer again (`replayed`), nothing moves;
 *  - with another operation or body: 422 IDEMPOTENCY_KEY_REUSED;
 *  - while the first is still running: the claim waits on the first's row lock (PostgreSQL's unique
 *    index does the waiting, no polling) and then replays; past LOCK_WAIT_MS it answers 409
 *    IDEMPOTENCY_KEY_IN_USE. PGlite runs one transaction at a time, so there the repeat simply
 *    runs after the first and replays.
 * A request that fails changes nothing, its claim included: the key stays free for a retry.
 * After KEY_TTL_MS (wall time) a key is free again; the game tick deletes expired rows.
 * The answer is stored as its exact JSON text, so a replay is byte-identical to the first answer.
 */
import 'server-only';
import { and, eq, lt, sql } from 'drizzle-orm';
import { getDb, postgresErrorCode, rowsOf, withRequestTransaction } from '@/db/client';
import { idempotencyKeys } from '@/db/schema';
import { AppError } from '@/lib/errors/app-error';
import { KEY_TTL_MS } from './key';

/** How long a repeat waits for the first request with its key before answering 409. */
const LOCK_WAIT_MS = 4_000;
const LOCK_NOT_AVAILABLE = '55P03';

export type TIdempotentCall = {
  userId: string;
  key: string;
  /** The operation's id (a key names one request of one operation). */
  operation: string;
  /** requestFingerprint(operation, params, body). */
  fingerprint: string;
  /** The HTTP status the answer is given with (stored, replayed as is). */
  status: number;
};

export type TIdempotentResult<T> = { value: T; replayed: boolean };

const isPlainJson = (v: unknown) => v !== null && typeof v === 'object' && !(v instanceof Response);

/**
 * Runs fn once per (caller, key): the first time in a request transaction with its answer stored,
 * every later time (within KEY_TTL_MS) by replaying that answer.
 */
export async function runIdempotent<T>(call: TIdempotentCall, fn: () => Promise<T>): Promise<TIdempotentResult<T>> {
  // Wall time, not game time: a test clock may run days ahead, and "24 hours" is the client's.
  const at = new Date();
  const expired = new Date(at.getTime() - KEY_TTL_MS);
  return withRequestTransaction(async (tx) => {
    let claimed: unknown[];
    try {
      // The claim sets the transaction's lock_timeout first (the CTE runs before the insert
      // reaches the key's index), bounding the wait on a first request still running; one round
      // trip. It stays set for the request: a trade that waits that long on a lock is answered
      // 503 and may be retried with the same key.
      claimed = rowsOf(
        await tx.execute(sql`
          with bound as (select set_config('lock_timeout', ${String(LOCK_WAIT_MS)}, true) as lock_timeout)
          insert into ${idempotencyKeys} (user_id, key, operation, request_hash, status, response, created_at)
          select ${call.userId}, ${call.key}, ${call.operation}, ${call.fingerprint}, 0, 'null', ${at.toISOString()}::timestamptz
          from bound
          on conflict (user_id, key) do update set
            operation = excluded.operation, request_hash = excluded.request_hash, status = 0,
            response = 'null', created_at = excluded.created_at
          where ${idempotencyKeys.createdAt} < ${expired.toISOString()}::timestamptz
          returning 1 as claimed`),
      );
    } catch (e) {
      if (postgresErrorCode(e) === LOCK_NOT_AVAILABLE) {
        throw new AppError('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still running: retry with the same key shortly', {
          key: call.key,
        });
      }
      throw e;
    }

    if (claimed.length === 0) {
      const [first] = await tx
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.userId, call.userId), eq(idempotencyKeys.key, call.key)));
      if (!first || first.operation !== call.operation || first.requestHash !== call.fingerprint) {
        throw new AppError(
          'IDEMPOTENCY_KEY_REUSED',
          'This Idempotency-Key was already used for a different request: send a new key for a new request',
          { key: call.key },
        );
      }
      // The stored text parses to the same keys in the same order: the replay serialises to the
      // first answer's bytes (jsonb would have reordered them).
      return { value: JSON.parse(first.response) as T, replayed: true };
    }

    let value: T;
    try {
      value = await fn();
    } catch (e) {
      if (postgresErrorCode(e) !== LOCK_NOT_AVAILABLE) throw e;
      throw new AppError('DEADLINE_EXCEEDED', 'The request waited too long for a lock and was abandoned; nothing was changed', { key: call.key });
    }
    if (!isPlainJson(value)) throw new Error(`runIdempotent: ${call.operation} answered something that cannot be stored`);
    await tx
      .update(idempotencyKeys)
      .set({ status: call.status, response: JSON.stringify(value) })
      .where(and(eq(idempotencyKeys.userId, call.userId), eq(idempotencyKeys.key, call.key)));
    return { value, replayed: false };
  });
}

/** Deletes the keys older than KEY_TTL_MS as of `at` (wall time; the game tick); returns how many. */
export async function deleteExpiredKeys(at: Date): Promise<number> {
  const db = await getDb();
  const gone = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, new Date(at.getTime() - KEY_TTL_MS)))
    .returning({ key: idempotencyKeys.key });
  return gone.length;
}
