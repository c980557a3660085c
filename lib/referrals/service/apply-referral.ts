/**
 * Applying a referral code at signup, inside the signup's transaction (the referred player's row
 * already locked): refuses an unknown code, one's own code, a second referrer, a code after the
 * profile was complete and a two-way pair; writes the referral {status: completed}, sets referredById (the referrer earns half of
 * the player's trading fees from then on) and pays the referrer's first_referral milestone once.
 */
import 'server-only';
import { and, eq, isNull } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { referrals, users, type TUserRow } from '@/db/schema';
import { AppError } from '@/lib/errors/app-error';
import { awardMilestone } from '@/lib/points/service/milestones';
import { findUserByReferralCode } from '../queries';

export async function applyReferralCode(tx: Tx, user: Pick<TUserRow, 'id' | 'referredById' | 'profileComplete'>, code: string, at: Date) {
  const referrer = await findUserByReferralCode(tx, code);
  if (!referrer || referrer.isPoolAccount) throw new AppError('INVALID_REFERRAL_CODE', 'Unknown referral code', { field: 'referralCode', provided: code });
  if (referrer.id === user.id) throw new AppError('SELF_REFERRAL', 'You cannot use your own referral code', { field: 'referralCode' });
  if (user.referredById) {
    if (user.referredById === referrer.id) return null; // the same code again: already applied
    throw new AppError('ALREADY_REFERRED', 'You already have a referrer', { field: 'referralCode' });
  }
  if (user.profileComplete) {
    // A code applies at signup only: attaching a referrer later would redirect an established player's fees.
    throw new AppError('REFERRAL_TOO_LATE', 'A referral code applies only when you sign up', { field: 'referralCode' });
  }
  if (referrer.referredById === user.id) {
    throw new AppError('INVALID_REFERRAL_CODE', 'You referred this player: you cannot be referred by them', { field: 'referralCode' });
  }
  const [set] = await tx
    .update(users)
    .set({ referredById: referrer.id })
    .where(and(eq(users.id, user.id), isNull(users.referredById)))
    .returning({ id: users.id });
  if (!set) throw new AppError('ALREADY_REFERRED', 'You already have a referrer', { field: 'referralCode' });
  const [referral] = await tx
    .insert(referrals)
    .values({ referrerId: referrer.id, referredUserId: user.id, status: 'completed', code: code.trim().toUpperCase(), completedAt: at, createdAt: at })
    .returning();
  const milestonePoints = await awardMilestone(tx, referrer.id, 'first_referral');
  return { referral: referral!, referrerId: referrer.id, referrerPoints: milestonePoints };
}
