/** Points: the second ledger (awards by administrators, transfers between players, a player's history and milestones). */
import { z } from 'zod';
import { ZIdParam, zQueryInt, zQueryIntOptional, ZSuccess, ZTimestamp, ZUserIdParams } from './common';
import { defineEndpoint } from './endpoint';

/** The specification's points transaction, with its time. */
export const ZPointsTransaction = z.object({
  id: z.string(),
  amount: z.number().int(),
  pointsBefore: z.number().int().min(0),
  pointsAfter: z.number().int().min(0),
  reason: z.string(),
  createdAt: ZTimestamp,
});

const ZMilestoneName = z.enum(['profile_completed', 'profile_image', 'username_set', 'social_a_linked', 'social_b_linked', 'wallet_connected', 'first_referral']);

/** A milestone paid by a call (signup, a link, a referral). */
export const ZMilestonePaid = z.object({ milestone: ZMilestoneName, points: z.number().int().positive() });

const POINTS_MAX = 1_000_000_000;

export const pointsAward = defineEndpoint({
  id: 'points.award',
  method: 'POST',
  path: '/api/users/points/award',
  idempotent: true,
  summary: 'Award points to a user, or correct them with a negative amount (never below zero); administrators only',
  tag: 'points',
  auth: 'user',
  requires: ['admin'],
  body: z.strictObject({
    userId: ZIdParam,
    amount: z
      .number()
      .int('amount must be a whole number')
      .min(-POINTS_MAX)
      .max(POINTS_MAX)
      .refine((n) => n !== 0, 'amount must not be zero'),
    reason: z.string().trim().min(1, 'reason is required').max(200),
    metadata: z.record(z.string(), z.unknown()).optional(),
  }),
  response: z.object({ success: ZSuccess, transaction: ZPointsTransaction }),
  errors: ['FORBIDDEN', 'USER_NOT_FOUND', 'INSUFFICIENT_POINTS', 'VALIDATION_ERROR'],
});

export const pointsTransfer = defineEndpoint({
  id: 'points.transfer',
  method: 'POST',
  path: '/api/points/transfer',
  idempotent: true,
  summary: 'Transfer a whole number of your points to another player',
  tag: 'points',
  auth: 'user',
  requires: ['trade'],
  rateLimit: 'pointsMove',
  body: z.strictObject({
    toUserId: ZIdParam,
    amount: z.number().int('amount must be a whole number').positive('amount must be positive').max(POINTS_MAX),
    reason: z.string().trim().max(200).optional(),
  }),
  response: z.object({
    success: ZSuccess,
    transfer: z.object({ id: z.string(), fromUserId: z.string(), toUserId: z.string(), amount: z.number().int(), reason: z.string() }),
    pointsAfter: z.number().int().min(0),
  }),
  errors: ['USER_NOT_FOUND', 'INSUFFICIENT_POINTS', 'CANNOT_TRANSFER_TO_SELF', 'VALIDATION_ERROR'],
});

export const pointsHistory = defineEndpoint({
  id: 'points.history',
  method: 'GET',
  path: '/api/users/{userId}/points',
  summary: 'Your points, their history (newest first; `before` pages by the cursor) and the milestone checklist (owner only)',
  tag: 'points',
  auth: 'user',
  requires: ['read'],
  params: ZUserIdParams,
  query: z.object({ limit: zQueryInt({ default: 50, min: 1, max: 200 }), before: zQueryIntOptional({ min: 1, max: Number.MAX_SAFE_INTEGER }) }),
  response: z.object({
    success: ZSuccess,
    points: z.number().int().min(0),
    transactions: z.array(ZPointsTransaction),
    nextCursor: z.number().int().nullable(),
    milestones: z.array(
      z.object({ milestone: ZMilestoneName, label: z.string(), points: z.number().int(), awarded: z.boolean(), awardedAt: ZTimestamp.nullable() }),
    ),
  }),
  errors: ['FORBIDDEN', 'USER_NOT_FOUND'],
});

export const pointsEndpoints = [pointsAward, pointsTransfer, pointsHistory] as const;
