/**
 * A referrer's own view (owner or administrator): the code and link, the referred players, and
 * the fees earned, by referred player, by source (predictions, perps, pools) and by day.
 */
import 'server-only';
import { eq } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { users } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { AppError } from '@/lib/errors/app-error';
import { dec, toDecimalString } from '@/lib/money/decimal';
import { REFERRAL_SOURCES } from '../fees';
import { referralUrlFor } from '../link';
import { countReferrals, listReferrals, referralFeeBreakdown, totalReferralFees } from '../queries';

const assertOwner = async (caller: TCaller, userId: string) => {
  if (userId !== caller.userId && !caller.isAdmin) throw new AppError('FORBIDDEN', 'You can only read your own referrals');
  const db = await getDb();
  const [user] = await db.select({ id: users.id, referralCode: users.referralCode }).from(users).where(eq(users.id, userId));
  if (!user) throw new AppError('USER_NOT_FOUND', 'User not found', { userId });
  return { db, user };
};

export async function readReferralCode(input: { caller: TCaller; userId: string; origin: string }) {
  const { db, user } = await assertOwner(input.caller, input.userId);
  const [referralCount, totalFeesEarned] = await Promise.all([countReferrals(db, user.id), totalReferralFees(db, user.id)]);
  return {
    referralCode: user.referralCode,
    referralUrl: referralUrlFor(input.origin, user.referralCode),
    referralCount,
    totalFeesEarned: toDecimalString(totalFeesEarned),
  };
}

export async function readReferrals(input: { caller: TCaller; userId: string; limit: number; offset: number }) {
  const { db, user } = await assertOwner(input.caller, input.userId);
  const [rows, totalReferrals, totalFeesEarned] = await Promise.all([
    listReferrals(db, user.id, input),
    countReferrals(db, user.id),
    totalReferralFees(db, user.id),
  ]);
  return {
    referrals: rows.map((r) => ({
      id: r.id,
      referredUserId: r.referredUserId,
      referredUser: { username: r.username, displayName: r.displayName, profileImageUrl: r.profileImageUrl },
      status: r.status,
      completedAt: r.completedAt.toISOString(),
      feesEarned: toDecimalString(r.feesEarned ?? '0'),
    })),
    totalReferrals,
    totalFeesEarned: toDecimalString(totalFeesEarned),
  };
}

export async function readReferralFees(input: { caller: TCaller; userId: string; days: number; now: Date }) {
  const { db, user } = await assertOwner(input.caller, input.userId);
  const since = new Date(Date.UTC(input.now.getUTCFullYear(), input.now.getUTCMonth(), input.now.getUTCDate() - (input.days - 1)));
  const { byUser, byDay } = await referralFeeBreakdown(db, user.id, since);
  const zeroSources = () => Object.fromEntries(REFERRAL_SOURCES.map((s) => [s, dec(0)]));
  const bySource = zeroSources();
  const users = new Map<string, { referredUserId: string; username: string; displayName: string; bySource: Record<string, ReturnType<typeof dec>>; trades: number }>();
  for (const r of byUser) {
    const u = users.get(r.referredUserId) ?? { referredUserId: r.referredUserId, username: r.username, displayName: r.displayName, bySource: zeroSources(), trades: 0 };
    u.bySource[r.source] = (u.bySource[r.source] ?? dec(0)).plus(r.total ?? '0');
    u.trades += Number(r.count);
    users.set(r.referredUserId, u);
    bySource[r.source] = (bySource[r.source] ?? dec(0)).plus(r.total ?? '0');
  }
  const days = new Map<string, Record<string, ReturnType<typeof dec>>>();
  for (let i = 0; i < input.days; i++) {
    days.set(new Date(since.getTime() + i * 86_400_000).toISOString().slice(0, 10), zeroSources());
  }
  for (const r of byDay) {
    const d = days.get(r.day);
    if (d) d[r.source] = (d[r.source] ?? dec(0)).plus(r.total);
  }
  const fmt = (m: Record<string, ReturnType<typeof dec>>) => Object.fromEntries(REFERRAL_SOURCES.map((s) => [s, toDecimalString(m[s] ?? 0)])) as Record<(typeof REFERRAL_SOURCES)[number], string>;
  const total = Object.values(bySource).reduce((a, b) => a.plus(b), dec(0));
  return {
    totalFeesEarned: toDecimalString(total),
    bySource: fmt(bySource),
    byReferredUser: [...users.values()]
      .map((u) => {
        const t = Object.values(u.bySource).reduce((a, b) => a.plus(b), dec(0));
        return { referredUserId: u.referredUserId, referredUser: { username: u.username, displayName: u.displayName }, total: toDecimalString(t), bySource: fmt(u.bySource), feeCount: u.trades };
      })
      .sort((a, b) => dec(b.total).cmp(a.total)),
    byDay: [...days.entries()].map(([day, m]) => ({ day, total: toDecimalString(Object.values(m).reduce((a, b) => a.plus(b), dec(0))), bySource: fmt(m) })),
  };
}
