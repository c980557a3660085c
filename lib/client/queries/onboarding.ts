/**
 * Onboarding in the browser: the wizard's submit (POST /api/auth/onboard: profile, referral,
 * milestones and the start of the on-chain registration), the referral code a link left in the
 * pm_ref cookie, the profile image upload, linking social accounts and choosing what the public
 * profile shows. Mutations update or invalidate the caches they change through the factories of
 * users, points, identity, referrals and waitlist. I/O: the typed client (and document.cookie).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiForm } from '@/lib/client/api';
import type { TEndpointInput, TEndpointResponse } from '@/lib/contracts/endpoint';
import { onboardingLinkSocial, onboardingOnboard, onboardingUpdateVisibility } from '@/lib/contracts/onboarding';
import { uploadImage } from '@/lib/contracts/uploads';
import type { TUser } from '@/lib/contracts/users';
import { getFieldErrors, hasErrorCode, type TErrorMessages } from './errors';
import { identityKeys, type TOnchainStatus } from './identity';
import { pointsKeys } from './points';
import { referralKeys } from './referrals';
import { getMeQueryOptions, userKeys } from './users';
import { waitlistKeys } from './waitlist';
import { REFERRAL_CODE_PATTERN, REFERRAL_COOKIE } from '@/lib/referrals/link';

export type TOnboardBody = NonNullable<TEndpointInput<typeof onboardingOnboard>['body']>;
export type TOnboardResult = TEndpointResponse<typeof onboardingOnboard>;
export type TMilestonePaid = TOnboardResult['pointsAwarded'][number];
export type TSocialPlatform = 'social_a' | 'social_b';
export type TVisibility = TEndpointResponse<typeof onboardingUpdateVisibility>['visibility'];

/** The referral code a link left in this browser, or '' (read on the client only). */
export function readReferralCookie(cookie: string = typeof document === 'undefined' ? '' : document.cookie) {
  for (const part of cookie.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === REFERRAL_COOKIE) {
      const value = decodeURIComponent(rest.join('='));
      return REFERRAL_CODE_PATTERN.test(value) ? value : '';
    }
  }
  return '';
}

export type TOnboardFormValues = { username: string; displayName: string; bio: string; profileImageUrl: string; referralCode: string };

/** The onboard body for the wizard's form: blanks are left out. Pure. */
export function buildOnboardBody(values: TOnboardFormValues): TOnboardBody {
  const body: TOnboardBody = { username: values.username.trim(), displayName: values.displayName.trim() };
  if (values.bio.trim()) body.bio = values.bio;
  if (values.profileImageUrl.trim()) body.profileImageUrl = values.profileImageUrl.trim();
  if (values.referralCode.trim()) body.referralCode = values.referralCode.trim();
  return body;
}

/** Field → message for a failed onboard: the username and referral codes on their fields, zod issues on theirs. */
export function onboardFieldErrors(error: unknown): Partial<Record<keyof TOnboardFormValues, string>> {
  if (hasErrorCode(error, 'USERNAME_TAKEN')) return { username: 'That username is already taken. Try another one.' };
  if (hasErrorCode(error, 'INVALID_REFERRAL_CODE')) return { referralCode: 'No player has this referral code. Check it, or leave the field empty.' };
  if (hasErrorCode(error, 'SELF_REFERRAL')) return { referralCode: 'You cannot use your own referral code.' };
  if (hasErrorCode(error, 'ALREADY_REFERRED')) return { referralCode: 'You were already referred by another player. Leave this field empty.' };
  if (hasErrorCode(error, 'REFERRAL_TOO_LATE')) return { referralCode: 'Referral codes apply only when you first sign up. Leave this field empty.' };
  return getFieldErrors(error);
}

export const ONBOARDING_ERROR_MESSAGES: TErrorMessages = {
  USERNAME_CHANGE_TOO_SOON: 'You changed your username recently; keep your current one for now.',
  VERIFICATION_FAILED: (e) => `We could not verify that account: ${e.message}`,
};

/** Completes the profile, applies the referral, pays the milestones and starts the on-chain registration. */
export function useOnboard() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TOnboardBody) => api(onboardingOnboard, { body }),
    onSuccess: async (result) => {
      qc.setQueryData(getMeQueryOptions().queryKey, result.user);
      if (result.onboardingIntent) {
        qc.setQueryData<TOnchainStatus>(identityKeys.status(), {
          success: true,
          onChainRegistered: result.user.onChainRegistered,
          onboardingIntent: result.onboardingIntent,
        });
      }
      await Promise.all([
        qc.invalidateQueries({ queryKey: userKeys.all }),
        qc.invalidateQueries({ queryKey: pointsKeys.all }),
        qc.invalidateQueries({ queryKey: waitlistKeys.all }),
        qc.invalidateQueries({ queryKey: referralKeys.all }),
      ]);
    },
  });
}

/** Uploads a picked image as a profile picture; answers the stored image (its relative `url`). */
export function useUploadProfileImage() {
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.set('file', file);
      form.set('type', 'profile');
      return apiForm(uploadImage, form);
    },
  });
}

/** Links a social account (any token outside production); its milestone is paid once. */
export function useLinkSocial() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, platform, username, accessToken }: { userId: string; platform: TSocialPlatform; username: string; accessToken: string }) =>
      api(onboardingLinkSocial, { params: { userId }, body: { platform, username: username.trim().replace(/^@/, ''), accessToken } }),
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: getMeQueryOptions().queryKey }),
        qc.invalidateQueries({ queryKey: pointsKeys.all }),
        qc.invalidateQueries({ queryKey: waitlistKeys.all }),
      ]),
  });
}

/** Sets what the public profile shows; the cached user takes the answer at once. */
export function useUpdateVisibility() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, ...body }: { userId: string } & Partial<TVisibility>) => api(onboardingUpdateVisibility, { params: { userId }, body }),
    onSuccess: async ({ visibility }) => {
      qc.setQueryData(getMeQueryOptions().queryKey, (me: TUser | undefined) => (me ? { ...me, ...visibility } : me));
      await Promise.all([
        qc.invalidateQueries({ queryKey: getMeQueryOptions().queryKey }),
        qc.invalidateQueries({ queryKey: userKeys.profiles() }),
      ]);
    },
  });
}
