/**
 * Signup: completing the token user's off-chain profile (POST /api/users/signup), and onboarding
 * (POST /api/auth/onboard and its legacy GET), which does the same and then starts the on-chain
 * registration. One transaction, the user's row locked: the profile (username rules of
 * lib/users), profileComplete, the referral (lib/referrals) and the milestones earned
 * (lib/points), so a failed signup changes nothing and parallel signups credit once.
 */
import 'server-only';
import { getDb, withTransaction } from '@/db/client';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { readRegistration, startRegistrationIn, toIntentDto } from '@/lib/identity/service/registration';
import { applyReferralCode } from '@/lib/referrals/service/apply-referral';
import { findUserById } from '@/lib/users/queries';
import { getUserDto } from '@/lib/users/service/read-profile';
import { lockUser, usernameRace, writeProfile } from '@/lib/users/service/update-profile';

export type TSignupInput = {
  caller: TCaller;
  username: string;
  displayName: string;
  bio?: string | null;
  profileImageUrl?: string | null;
  referralCode?: string | null;
};

const runSignup = async (input: TSignupInput, opts: { onchain: boolean }) => {
  try {
    const out = await withTransaction(async (tx) => {
      const at = now();
      const locked = await lockUser(tx, input.caller.userId);
      const code = input.referralCode?.trim();
      const referral = code ? await applyReferralCode(tx, locked, code, at) : null;
      const { user, milestones } = await writeProfile(
        tx,
        locked,
        {
          username: input.username,
          displayName: input.displayName,
          bio: input.bio,
          profileImageUrl: input.profileImageUrl,
          complete: true,
        },
        at,
      );
      const intent = opts.onchain ? await startRegistrationIn(tx, user.id) : null;
      return { user, milestones, referral, intent };
    });
    return {
      user: await getUserDto(out.user, { self: true, isAdmin: input.caller.isAdmin, isModerator: input.caller.isModerator }),
      pointsAwarded: out.milestones,
      referral: out.referral
        ? { id: out.referral.referral.id, referrerId: out.referral.referrerId, status: 'completed' as const, completedAt: out.referral.referral.completedAt.toISOString() }
        : null,
      intent: out.intent,
    };
  } catch (e) {
    throw usernameRace(e, input.username);
  }
};

export async function signup(input: TSignupInput) {
  const { intent: _none, ...result } = await runSignup(input, { onchain: false });
  return result;
}

export async function onboard(input: TSignupInput) {
  const { intent, ...result } = await runSignup(input, { onchain: true });
  return { ...result, onboardingIntent: intent ? toIntentDto(intent) : null, needsSetup: false };
}

/** Where onboarding stands for the caller (the legacy GET without fields). */
export async function onboardingStatus(input: { caller: TCaller }) {
  const user = await findUserById(await getDb(), input.caller.userId);
  if (!user) throw new AppError('USER_NOT_FOUND', 'User not found', { userId: input.caller.userId });
  const { onboardingIntent } = await readRegistration(user.id);
  return {
    user: await getUserDto(user, { self: true, isAdmin: input.caller.isAdmin, isModerator: input.caller.isModerator }),
    pointsAwarded: [],
    referral: null,
    onboardingIntent,
    needsSetup: !user.profileComplete,
  };
}
