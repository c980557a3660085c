/** The waitlist: players ranked by points before a launch, and its two bonuses (an email, a wallet), each paid on proof. */
import { z } from 'zod';
import { ZIdParam, zQueryInt, ZSuccess, ZTimestamp } from './common';
import { defineEndpoint } from './endpoint';
import { walletProofFields, ZWalletAddress } from './wallets';

export const waitlistEmailBonus = defineEndpoint({
  id: 'waitlist.emailBonus',
  method: 'POST',
  path: '/api/waitlist/bonus/email',
  summary:
    'Ask to add an email address to your waitlist entry: a verification code is mailed to it (valid 24 hours; a new request replaces it). Nothing is reserved or paid until the code is presented (POST /api/waitlist/bonus/email/verify)',
  tag: 'waitlist',
  auth: 'user',
  requires: ['account'],
  rateLimit: 'verification',
  body: z.strictObject({ email: z.email('must be a valid email address').max(254) }),
  response: z.object({ success: ZSuccess, email: z.string(), verificationSent: z.literal(true), expiresAt: ZTimestamp }),
  errors: ['BONUS_ALREADY_CLAIMED', 'EMAIL_TAKEN', 'EMAIL_NOT_CONFIGURED', 'USER_NOT_FOUND', 'VALIDATION_ERROR'],
});

export const waitlistVerifyEmailBonus = defineEndpoint({
  id: 'waitlist.verifyEmailBonus',
  method: 'POST',
  path: '/api/waitlist/bonus/email/verify',
  idempotent: true,
  summary: 'Present the code mailed to your address: the address joins your waitlist entry (one per player and per address) and the email bonus is paid, once',
  tag: 'waitlist',
  auth: 'user',
  requires: ['account'],
  rateLimit: 'verification',
  body: z.strictObject({ token: z.string().trim().min(1, 'token is required').max(200).describe('the verification code from the email') }),
  response: z.object({ success: ZSuccess, email: z.string(), bonusAwarded: z.number().int().min(0), points: z.number().int().min(0) }),
  errors: ['BONUS_ALREADY_CLAIMED', 'EMAIL_TAKEN', 'EMAIL_TOKEN_INVALID', 'EMAIL_TOKEN_EXPIRED', 'USER_NOT_FOUND', 'VALIDATION_ERROR'],
});

export const waitlistWalletBonus = defineEndpoint({
  id: 'waitlist.walletBonus',
  method: 'POST',
  path: '/api/waitlist/bonus/wallet',
  idempotent: true,
  summary:
    "Connect a wallet (EIP-55 checksummed) for the wallet milestone; it becomes your walletAddress. Proof of ownership: the address's EIP-191 signature of a challenge issued to you (POST /api/users/wallet/challenge)",
  tag: 'waitlist',
  auth: 'user',
  requires: ['account'],
  rateLimit: 'verification',
  body: z.strictObject({ walletAddress: ZWalletAddress, ...walletProofFields }),
  response: z.object({ success: ZSuccess, walletAddress: z.string(), bonusAwarded: z.number().int().min(0), points: z.number().int().min(0) }),
  errors: [
    'BONUS_ALREADY_CLAIMED',
    'WALLET_TAKEN',
    'INVALID_SIGNATURE',
    'CHALLENGE_NOT_FOUND',
    'CHALLENGE_MISMATCH',
    'CHALLENGE_EXPIRED',
    'CHALLENGE_USED',
    'USER_NOT_FOUND',
    'VALIDATION_ERROR',
  ],
});

export const waitlistPosition = defineEndpoint({
  id: 'waitlist.position',
  method: 'GET',
  path: '/api/waitlist/position',
  summary: "A player's place on the waitlist: rank, points, how many are ahead, referrals (your own unless you are an administrator)",
  tag: 'waitlist',
  auth: 'user',
  requires: ['read'],
  query: z.object({ userId: ZIdParam.optional() }),
  response: z.object({
    success: ZSuccess,
    position: z.object({
      userId: z.string(),
      rank: z.number().int().positive().nullable().describe('null for accounts that are not players (NPC actors, agents)'),
      points: z.number().int(),
      ahead: z.number().int(),
      totalPlayers: z.number().int(),
      referralCount: z.number().int(),
      onWaitlist: z.boolean(),
    }),
  }),
  errors: ['FORBIDDEN', 'USER_NOT_FOUND'],
});

export const waitlistLeaderboard = defineEndpoint({
  id: 'waitlist.leaderboard',
  method: 'GET',
  path: '/api/waitlist/leaderboard',
  summary: 'The top of the waitlist by points (earlier players first on a tie)',
  tag: 'waitlist',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  query: z.object({ limit: zQueryInt({ default: 50, min: 1, max: 200 }) }),
  response: z.object({
    success: ZSuccess,
    leaderboard: z.array(
      z.object({
        rank: z.number().int().positive(),
        userId: z.string(),
        username: z.string(),
        displayName: z.string(),
        profileImageUrl: z.string().nullable(),
        points: z.number().int(),
        referralCount: z.number().int(),
      }),
    ),
    totalPlayers: z.number().int(),
  }),
});

export const waitlistEndpoints = [waitlistEmailBonus, waitlistVerifyEmailBonus, waitlistWalletBonus, waitlistPosition, waitlistLeaderboard] as const;
