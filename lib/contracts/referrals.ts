/** Referrals: a player's code and link, the players they referred, and the trading fees those earned them (owner only). */
import { z } from 'zod';
import { ZDecimalString, zQueryInt, ZSuccess, ZTimestamp, ZUserIdParams } from './common';
import { defineEndpoint } from './endpoint';

const ZSources = z.object({ predictions: ZDecimalString, perps: ZDecimalString, pools: ZDecimalString });

export const referralsCode = defineEndpoint({
  id: 'referrals.code',
  method: 'GET',
  path: '/api/users/{userId}/referral-code',
  summary: 'Your referral code, its link, how many players used it and the fees they earned you',
  tag: 'referrals',
  auth: 'user',
  requires: ['read'],
  params: ZUserIdParams,
  response: z.object({
    success: ZSuccess,
    referralCode: z.string(),
    referralUrl: z.string(),
    referralCount: z.number().int(),
    totalFeesEarned: ZDecimalString,
  }),
  errors: ['FORBIDDEN', 'USER_NOT_FOUND'],
});

export const referralsList = defineEndpoint({
  id: 'referrals.list',
  method: 'GET',
  path: '/api/users/{userId}/referrals',
  summary: 'The players you referred, newest first, with the fees each earned you',
  tag: 'referrals',
  auth: 'user',
  requires: ['read'],
  params: ZUserIdParams,
  query: z.object({ limit: zQueryInt({ default: 50, min: 1, max: 200 }), offset: zQueryInt({ default: 0, max: 100_000 }) }),
  response: z.object({
    success: ZSuccess,
    referrals: z.array(
      z.object({
        id: z.string(),
        referredUserId: z.string(),
        referredUser: z.object({ username: z.string(), displayName: z.string(), profileImageUrl: z.string().nullable() }),
        status: z.string(),
        completedAt: ZTimestamp,
        feesEarned: ZDecimalString,
      }),
    ),
    totalReferrals: z.number().int(),
    totalFeesEarned: ZDecimalString,
  }),
  errors: ['FORBIDDEN', 'USER_NOT_FOUND'],
});

export const referralsFees = defineEndpoint({
  id: 'referrals.fees',
  method: 'GET',
  path: '/api/users/{userId}/referral-fees',
  summary: 'Referral fees earned: by referred player, by source (predictions, perps, pools) and by day (the last `days` days, UTC)',
  tag: 'referrals',
  auth: 'user',
  requires: ['read'],
  params: ZUserIdParams,
  query: z.object({ days: zQueryInt({ default: 30, min: 1, max: 365 }) }),
  response: z.object({
    success: ZSuccess,
    totalFeesEarned: ZDecimalString,
    bySource: ZSources,
    byReferredUser: z.array(
      z.object({
        referredUserId: z.string(),
        referredUser: z.object({ username: z.string(), displayName: z.string() }),
        total: ZDecimalString,
        bySource: ZSources,
        feeCount: z.number().int(),
      }),
    ),
    byDay: z.array(z.object({ day: z.string().describe('YYYY-MM-DD, UTC'), total: ZDecimalString, bySource: ZSources })),
  }),
  errors: ['FORBIDDEN', 'USER_NOT_FOUND'],
});

export const referralsEndpoints = [referralsCode, referralsList, referralsFees] as const;
