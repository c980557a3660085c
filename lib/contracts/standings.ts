/** The leaderboard: everyone ranked by points (all, earned or referral), from the standings read model. */
import { z } from 'zod';
import { ZSuccess, zQueryInt } from './common';
import { defineEndpoint } from './endpoint';

export const ZRankedUser = z.object({
  id: z.string(),
  username: z.string(),
  displayName: z.string(),
  profileImageUrl: z.string().nullable(),
  isActor: z.boolean(),
});

export const ZLeaderboardEntry = z.object({
  rank: z.number().int().positive().describe('1 + the number of players with more points on this board: ties share a rank'),
  user: ZRankedUser,
  points: z.number().int().describe('reputation points now (transfers included)'),
  earnedPoints: z.number().int().describe("points earned by one's own activity: milestones, shares, bonuses, awards"),
  referralPoints: z.number().int().describe('points earned by referring players'),
  lifetimePnL: z.number(),
  reputation: z.number().int().describe('the reputation score, 0 to 1000 (GET /api/reputation/{userId})'),
  pnlHistory: z.array(z.number()).describe("lifetimePnL at the close of each of the last 14 game days (oldest first; days before the account's first snapshot are absent)"),
});

export const leaderboardGet = defineEndpoint({
  id: 'standings.leaderboard',
  method: 'GET',
  path: '/api/leaderboard',
  summary: "Everyone ranked by points; with a token, the caller's own entry as `me` on every page",
  tag: 'standing',
  auth: 'public',
  requires: ['read'],
  query: z.object({
    page: zQueryInt({ default: 1, min: 1, max: 100_000 }),
    pageSize: zQueryInt({ default: 100, min: 1, max: 100 }),
    pointsType: z.enum(['all', 'earned', 'referral']).default('all').describe('all: points now; earned: own activity; referral: referrals'),
  }),
  response: z.object({
    success: ZSuccess,
    pointsType: z.enum(['all', 'earned', 'referral']),
    leaderboard: z.array(ZLeaderboardEntry),
    me: ZLeaderboardEntry.nullable().describe('the caller (token sent and ranked), whatever the page; null otherwise'),
    pagination: z.object({
      page: z.number().int(),
      pageSize: z.number().int(),
      total: z.number().int(),
      totalPages: z.number().int(),
    }),
  }),
  errors: ['INVALID_PARAMETER'],
});

export const standingsEndpoints = [leaderboardGet] as const;
