/**
 * Onboarding: signup and the legacy onboard (profile, referral, milestones, then the on-chain
 * step), linked social accounts, public-profile visibility and tracked shares.
 */
import { z } from 'zod';
import { ZIdParam, ZSuccess, ZTimestamp, ZUserIdParams } from './common';
import { defineEndpoint } from './endpoint';
import { ZOnboardingIntent } from './identity';
import { ZMilestonePaid } from './points';
import { ZImageUrl, ZUser, ZUsername } from './users';

const ZReferralCode = z.string().trim().min(1).max(32).regex(/^[A-Za-z0-9]+$/, 'referral codes are letters and digits');

const signupFields = {
  username: ZUsername,
  displayName: z.string().trim().min(1, 'displayName is required').max(50, 'displayName is at most 50 characters'),
  bio: z.string().max(500, 'bio is at most 500 characters').nullable().optional(),
  profileImageUrl: ZImageUrl.nullable().optional(),
  referralCode: ZReferralCode.nullable().optional(),
};

export const ZSignupBody = z.strictObject(signupFields);

const ZSignupResult = z.object({
  success: ZSuccess,
  user: ZUser,
  pointsAwarded: z.array(ZMilestonePaid),
  referral: z.object({ id: z.string(), referrerId: z.string(), status: z.literal('completed'), completedAt: ZTimestamp }).nullable(),
});

const SIGNUP_ERRORS = ['USERNAME_TAKEN', 'USERNAME_CHANGE_TOO_SOON', 'INVALID_REFERRAL_CODE', 'SELF_REFERRAL', 'ALREADY_REFERRED', 'REFERRAL_TOO_LATE', 'VALIDATION_ERROR'] as const;

export const onboardingSignup = defineEndpoint({
  id: 'onboarding.signup',
  method: 'POST',
  path: '/api/users/signup',
  idempotent: true,
  summary: "Complete the token user's off-chain profile (profileComplete), apply a referral code and pay the milestones earned",
  tag: 'onboarding',
  auth: 'user',
  requires: ['account'],
  rateLimit: 'profileUpdate',
  body: ZSignupBody,
  response: ZSignupResult,
  errors: SIGNUP_ERRORS,
});

const ZOnboardResult = ZSignupResult.extend({ onboardingIntent: ZOnboardingIntent.nullable(), needsSetup: z.boolean() });

export const onboardingOnboard = defineEndpoint({
  id: 'onboarding.onboard',
  method: 'POST',
  path: '/api/auth/onboard',
  idempotent: true,
  summary: 'Complete onboarding as signup does, then start the on-chain identity registration',
  tag: 'onboarding',
  auth: 'user',
  requires: ['account'],
  rateLimit: 'profileUpdate',
  body: ZSignupBody,
  response: ZOnboardResult,
  errors: SIGNUP_ERRORS,
});

export const onboardingOnboardLegacy = defineEndpoint({
  id: 'onboarding.onboardLegacy',
  method: 'GET',
  path: '/api/auth/onboard',
  summary: 'Legacy onboarding: with username and displayName in the query it does what POST does; without them it reports where onboarding stands',
  tag: 'onboarding',
  auth: 'user',
  requires: ['read', 'account'],
  // It writes: a cookie caller only from our own page (CSRF by link or image).
  writesOnGet: true,
  rateLimit: 'profileUpdate',
  query: z.strictObject({
    username: signupFields.username.optional(),
    displayName: signupFields.displayName.optional(),
    bio: z.string().max(500).optional(),
    profileImageUrl: ZImageUrl.optional(),
    referralCode: ZReferralCode.optional(),
  }),
  response: ZOnboardResult,
  errors: SIGNUP_ERRORS,
});

export const onboardingLinkSocial = defineEndpoint({
  id: 'onboarding.linkSocial',
  method: 'POST',
  path: '/api/users/{userId}/link-social',
  idempotent: true,
  summary: 'Link a verified social_a or social_b account (its milestone is paid once per platform)',
  tag: 'onboarding',
  auth: 'user',
  requires: ['account'],
  rateLimit: 'verification',
  params: ZUserIdParams,
  body: z.strictObject({
    platform: z.enum(['social_a', 'social_b']),
    accessToken: z.string().min(1, 'accessToken is required').max(4096),
    username: z.string().trim().min(1, 'username is required').max(100),
  }),
  response: z.object({
    success: ZSuccess,
    linked: z.literal(true),
    platform: z.enum(['social_a', 'social_b']),
    username: z.string(),
    pointsAwarded: z.number().int().min(0),
    hasSocialA: z.boolean(),
    hasSocialB: z.boolean(),
    reputationPoints: z.number().int(),
  }),
  errors: ['FORBIDDEN', 'VERIFICATION_FAILED', 'VALIDATION_ERROR'],
});

const ZVisibility = z.object({ showSocialAPublic: z.boolean(), showSocialBPublic: z.boolean(), showWalletPublic: z.boolean() });

export const onboardingUpdateVisibility = defineEndpoint({
  id: 'onboarding.updateVisibility',
  method: 'POST',
  path: '/api/users/{userId}/update-visibility',
  summary: 'Choose what your public profile shows: the linked handles and the wallet (omitted flags stay as they are)',
  tag: 'onboarding',
  auth: 'user',
  requires: ['account'],
  rateLimit: 'profileUpdate',
  params: ZUserIdParams,
  body: ZVisibility.partial().strict(),
  response: z.object({ success: ZSuccess, visibility: ZVisibility }),
  errors: ['FORBIDDEN', 'USER_NOT_FOUND', 'VALIDATION_ERROR'],
});

const ZShareAction = z.object({
  id: z.string(),
  userId: z.string(),
  platform: z.string(),
  contentType: z.string(),
  contentId: z.string(),
  url: z.string().nullable(),
  status: z.enum(['pending', 'verified']),
  pointsAwarded: z.number().int(),
  createdAt: ZTimestamp,
  verifiedAt: ZTimestamp.nullable(),
});

const ZHttpUrl = z
  .string()
  .max(2048)
  .refine((s) => /^https?:\/\/[^\s]+$/i.test(s), 'must be an http(s) URL');

export const onboardingShare = defineEndpoint({
  id: 'onboarding.share',
  method: 'POST',
  path: '/api/users/{userId}/share',
  idempotent: true,
  summary: 'Record that you shared some content to an external platform; verify it later for points',
  tag: 'onboarding',
  auth: 'user',
  requires: ['account'],
  rateLimit: 'share',
  params: ZUserIdParams,
  body: z.strictObject({
    platform: z.string().trim().min(1).max(32).regex(/^[a-z0-9_]+$/i, 'platform is letters, digits or underscores'),
    contentType: z.string().trim().min(1).max(32).regex(/^[a-z0-9_]+$/i, 'contentType is letters, digits or underscores'),
    contentId: ZIdParam,
    url: ZHttpUrl.optional(),
  }),
  response: z.object({ success: ZSuccess, shareActionId: z.string(), shareAction: ZShareAction }),
  status: 201,
  errors: ['FORBIDDEN', 'VALIDATION_ERROR'],
});

export const onboardingVerifyShare = defineEndpoint({
  id: 'onboarding.verifyShare',
  method: 'POST',
  path: '/api/users/{userId}/verify-share',
  idempotent: true,
  summary:
    "Verify a recorded share by the external post: the post must be by your linked handle on the share's platform (its URL names the handle and the post id), each post verifies one share ever, and at most 3 shares are verified per player per UTC day; points are paid once per content and platform",
  tag: 'onboarding',
  auth: 'user',
  requires: ['account'],
  rateLimit: 'verification',
  params: ZUserIdParams,
  body: z.strictObject({
    shareActionId: ZIdParam,
    verificationDetails: z.strictObject({ postId: z.string().trim().min(1).max(200), url: ZHttpUrl }),
  }),
  response: z.object({ success: ZSuccess, verified: z.boolean(), pointsAwarded: z.number().int().min(0), shareAction: ZShareAction }),
  errors: [
    'FORBIDDEN',
    'SHARE_ACTION_NOT_FOUND',
    'SOCIAL_NOT_LINKED',
    'SHARE_NOT_YOURS',
    'SHARE_POST_ALREADY_USED',
    'SHARE_DAILY_LIMIT',
    'VERIFICATION_FAILED',
    'USER_NOT_FOUND',
    'VALIDATION_ERROR',
  ],
});

export const onboardingEndpoints = [
  onboardingSignup,
  onboardingOnboard,
  onboardingOnboardLegacy,
  onboardingLinkSocial,
  onboardingUpdateVisibility,
  onboardingShare,
  onboardingVerifyShare,
] as const;
