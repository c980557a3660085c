/**
 * The points ledger: the only code that changes users.reputation_points. Each change is one
 * statement: (for a once-only award) the claim of its key in points_awards, the conditional
 * UPDATE of the user's row (which takes the row lock until the caller's transaction ends) and the
 * points_transactions row read from its result, so pointsBefore + amount = pointsAfter holds
 * under concurrency and the user's points equal the newest row's pointsAfter.
 * Invariants: points are whole numbers and never go below zero (the WHERE clause re-checks under
 * the lock); an award key pays at most once per user, whatever the order or concurrency (the
 * primary key of points_awards: a second claim waits for the first and then claims nothing).
 */
import 'server-only';
import { eq, sql } from 'drizzle-orm';
import { pointsAwards, pointsTransactions, users } from '@/db/schema';
import { rowsOf, type Tx } from '@/db/client';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';

export type TPointsChange = {
  userId: string;
  /** Signed whole number: positive awards, negative corrections and transfers out. Never zero. */
  amount: number;
  reason: string;
  metadata?: Record<string, unknown>;
  /** Pays at most once per user: a second change with the same key does nothing (answers null). */
  awardKey?: string;
};

export type TPointsChangeResult = {
  transactionId: string;
  amount: number;
  pointsBefore: number;
  pointsAfter: number;
  reason: string;
  createdAt: Date;
};

/**
 * Applies one points change inside `tx`. Answers null when `awardKey` was already paid; throws
 * INSUFFICIENT_POINTS (with required and available) when the change would go below zero and
 * USER_NOT_FOUND when the user does not exist. A fractional or zero amount is a caller's bug.
 */
export async function applyPointsChange(tx: Tx, change: TPointsChange): Promise<TPointsChangeResult | null> {
  const { amount } = change;
  if (!Number.isSafeInteger(amount) || amount === 0) {
    throw new Error(`points ledger: amount must be a non-zero whole number, got ${String(amount)}`);
  }
  const at = now();
  const ts = sql`${at.toISOString()}::timestamptz`;
  const id = crypto.randomUUID();
  const claim = change.awardKey
    ? sql`claim as (
        insert into ${pointsAwards} (user_id, award_key, created_at) values (${change.userId}, ${change.awardKey}, ${ts})
        on conflict do nothing returning 1 as claimed
      ),`
    : sql`claim as (select 1 as claimed),`;
  const [row] = rowsOf<{ claimed: number | string; points: number | null; id: string | null }>(
    await tx.execute(sql`
      with ${claim}
      changed as (
        update ${users} set reputation_points = reputation_points + ${amount}::int, updated_at = ${ts}
        where id = ${change.userId} and reputation_points + ${amount}::int >= 0 and exists (select 1 from claim)
        returning reputation_points
      ),
      written as (
        insert into ${pointsTransactions} (id, user_id, amount, points_before, points_after, reason, award_key, metadata, created_at)
        select ${id}, ${change.userId}, ${amount}::int, reputation_points - ${amount}::int, reputation_points, ${change.reason},
          ${change.awardKey ?? null}, ${change.metadata ? JSON.stringify(change.metadata) : null}::jsonb, ${ts}
        from changed
        returning id
      )
      select (select count(*) from claim) as claimed, (select reputation_points from changed) as points, (select id from written) as id`),
  );
  if (Number(row?.claimed ?? 0) === 0) return null;
  if (row?.points === null || row?.points === undefined || !row.id) {
    const [existing] = await tx.select({ points: users.reputationPoints }).from(users).where(eq(users.id, change.userId));
    if (!existing) throw new AppError('USER_NOT_FOUND', 'User not found', { userId: change.userId });
    throw new AppError('INSUFFICIENT_POINTS', 'Not enough points', { required: -amount, available: existing.points });
  }
  const after = Number(row.points);
  return { transactionId: row.id, amount, pointsBefore: after - amount, pointsAfter: after, reason: change.reason, createdAt: at };
}

/**
 * Locks the rows of these users in id order, so two transfers in opposite directions cannot deadlock.
 * FOR NO KEY UPDATE, the lock an UPDATE of non-key columns takes itself: FOR UPDATE would also
 * block the foreign-key checks (FOR KEY SHARE) of rows that reference a user, such as the standings
 * refresh's writes, and a transfer waiting on the refresh's marks while holding FOR UPDATE deadlocked
 * with it.
 */
export async function lockUsersInOrder(tx: Tx, userIds: string[]) {
  const ids = [...new Set(userIds)].sort();
  const rows = rowsOf<{ id: string }>(
    await tx.execute(
      sql`select id from ${users} where id in (${sql.join(
        ids.map((i) => sql`${i}`),
        sql`, `,
      )}) order by id for no key update`,
    ),
  );
  return new Set(rows.map((r) => r.id));
}
