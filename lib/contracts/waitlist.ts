/** The waitlist: players ranked by points before a launch, and its two bonuses (an email, a wallet). */
import { z } from 'zod';
import { ZIdParam, zQueryInt, ZSuccess } from './common';
import { defineEndpoint } from './endpoint';

export const waitlistEmailBonus = defineEndpoint({
  id: 'waitlist.emailBonus',
  method: 'POST',
  path: '/api/waitlist/bonus/email',
  idempotent: true,
  summary: 'Add an email address to your waitlist entry for bonus points (once per player and per address)',
  tag: 'waitlist',
  auth: 'user',
  rateLimit: 'verification',
  body: z.strictObject({ email: z.email('must be a valid email address').max(254) }),
  response: z.object({ success: ZSuccess, email: z.string(), bonusAwarded: z.number().int().min(0), points: z.number().int().min(0) }),
  errors: ['BONUS_ALREADY_CLAIMED', 'EMAIL_TAKEN', 'VALIDATION_ERROR'],
});

/** An EIP-55 checksummed address (the checksum is checked by the route's service). */
const ZChecksumAddress = z
  .string()
  .length(42, 'must be 42 characters: 0x and 40 hex digits')
  .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte hex address')
  .describe('an EIP-55 checksummed address');

export const waitlistWalletBonus = defineEndpoint({
  id: 'waitlist.walletBonus',
  method: 'POST',
  path: '/api/waitlist/bonus/wallet',
  idempotent: true,
  summary: 'Connect a wallet (EIP-55 checksummed) for the wallet milestone; it becomes your walletAddress',
  tag: 'waitlist',
  auth: 'user',
  rateLimit: 'verification',
  body: z.strictObject({ walletAddress: ZChecksumAddress }),
  response: z.object({ success: ZSuccess, walletAddress: z.string(), bonusAwarded: z.number().int().min(0), points: z.number().int().min(0) }),
  errors: ['BONUS_ALREADY_CLAIMED', 'WALLET_TAKEN', 'VALIDATION_ERROR'],
});

export const waitlistPosition = defineEndpoint({
  id: 'waitlist.position',
  method: 'GET',
  path: '/api/waitlist/position',
  summary: "A player's place on the waitlist: rank, points, how many are ahead, referrals (your own unless you are an administrator)",
  tag: 'waitlist',
  auth: 'user',
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

export const waitlistEndpoints = [waitlistEmailBonus, waitlistWalletBonus, waitlistPosition, waitlistLeaderboard] as const;
