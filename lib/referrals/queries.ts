/**
 * Reads of referrals and the fees they earned (indexes: referrals_referrer_idx,
 * referral_fees_referrer_idx, users_referred_by_idx).
 */
import 'server-only';
import { count, desc, eq, sql, sum } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '@/db/client';
import { referralFees, referrals, users } from '@/db/schema';

export async function findReferrerId(db: DbOrTx, userId: string): Promise<string | null> {
  const [row] = await db.select({ referredById: users.referredById }).from(users).where(eq(users.id, userId));
  return row?.referredById ?? null;
}

/** The user owning a referral code (codes are matched ignoring case). */
export async function findUserByReferralCode(db: DbOrTx, code: string) {
  const [row] = await db
    .select({ id: users.id, referredById: users.referredById, isActor: users.isActor, isPoolAccount: users.isPoolAccount })
    .from(users)
    .where(eq(users.referralCode, code.trim().toUpperCase()));
  return row ?? null;
}

export async function countReferrals(db: DbOrTx, referrerId: string) {
  const [row] = await db.select({ n: count() }).from(referrals).where(eq(referrals.referrerId, referrerId));
  return Number(row?.n ?? 0);
}

export async function totalReferralFees(db: DbOrTx, referrerId: string) {
  const [row] = await db.select({ total: sum(referralFees.amount) }).from(referralFees).where(eq(referralFees.referrerId, referrerId));
  return row?.total ?? '0';
}

/** A referrer's referrals, newest first, with each referred player's name and the fees they earned the referrer. */
export async function listReferrals(db: DbOrTx, referrerId: string, opts: { limit: number; offset: number }) {
  const earned = db
    .select({ referredUserId: referralFees.referredUserId, total: sum(referralFees.amount).as('total') })
    .from(referralFees)
    .where(eq(referralFees.referrerId, referrerId))
    .groupBy(referralFees.referredUserId)
    .as('earned');
  return db
    .select({
      id: referrals.id,
      referredUserId: referrals.referredUserId,
      status: referrals.status,
      completedAt: referrals.completedAt,
      username: users.username,
      displayName: users.displayName,
      profileImageUrl: users.profileImageUrl,
      feesEarned: sql<string | null>`${earned.total}`,
    })
    .from(referrals)
    .innerJoin(users, eq(users.id, referrals.referredUserId))
    .leftJoin(earned, eq(earned.referredUserId, referrals.referredUserId))
    .where(eq(referrals.referrerId, referrerId))
    .orderBy(desc(referrals.completedAt), desc(referrals.id))
    .limit(opts.limit)
    .offset(opts.offset);
}

/** A referrer's fees by referred player and source, and by day and source, since `since`. */
export async function referralFeeBreakdown(db: DbOrTx, referrerId: string, since: Date) {
  const byUser = await db
    .select({
      referredUserId: referralFees.referredUserId,
      username: users.username,
      displayName: users.displayName,
      source: referralFees.source,
      total: sum(referralFees.amount),
      count: count(),
    })
    .from(referralFees)
    .innerJoin(users, eq(users.id, referralFees.referredUserId))
    .where(eq(referralFees.referrerId, referrerId))
    .groupBy(referralFees.referredUserId, users.username, users.displayName, referralFees.source);
  const byDay = rowsOf<{ day: string; source: string; total: string }>(
    await db.execute(sql`
      select to_char(date_trunc('day', created_at at time zone 'UTC'), 'YYYY-MM-DD') as day, source, sum(amount)::text as total
      from ${referralFees}
      where referrer_id = ${referrerId} and created_at >= ${since.toISOString()}::timestamptz
      group by 1, 2 order by 1`),
  );
  return { byUser, byDay };
}
