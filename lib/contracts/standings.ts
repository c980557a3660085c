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
  isBot: z.boolean().describe('an agent account, or one that trades through an API key'),
});

const ZPeriods = z.object({ day: z.number(), week: z.number(), season: z.number(), all: z.number() });

export const ZLeaderboardEntry = z.object({
  rank: z.number().int().positive().describe('1 + the number of players with more points on this board: ties share a rank'),
  user: ZRankedUser,
  points: z.number().int().describe('reputation points now (transfers included)'),
  earnedPoints: z.number().int().describe("points earned by one's own activity: milestones, shares, bonuses, awards"),
  referralPoints: z.number().int().describe('points earned by referring players'),
  kind: z.enum(['user', 'agent', 'actor']).describe('actor: an NPC of the world; agent: an automated player'),
  lifetimePnL: z.number().describe('the one P&L (equity − contributions, lib/equity) as of pnlAt'),
  reputation: z.number().int().describe('the reputation score, 0 to 1000 (GET /api/reputation/{userId})'),
  pnlHistory: z.array(z.number()).describe("the P&L at the close of each of the last 14 game days (oldest first; days before the account's first snapshot are absent)"),
  score: z.number().describe("what this board ranks by: the points of pointsType, or the metric over the period (roi as a fraction: 0.05 = 5 %)"),
  pnl: ZPeriods.describe('P&L over each period: now less the P&L at the daily close before it'),
  roi: ZPeriods.describe('P&L over each period ÷ (equity at its start + contributions during it), a fraction'),
  pnlAt: z.string().nullable().describe('when pnl and roi were computed (game time); null before the first sweep reached the account'),
});

export const leaderboardGet = defineEndpoint({
  id: 'standings.leaderboard',
  method: 'GET',
  path: '/api/leaderboard',
  summary: "Everyone ranked by points; with a token, the caller's own entry as `me` on every page",
  tag: 'standing',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  query: z.object({
    page: zQueryInt({ default: 1, min: 1, max: 100_000 }),
    pageSize: zQueryInt({ default: 100, min: 1, max: 100 }),
    pointsType: z.enum(['all', 'earned', 'referral']).default('all').describe('all: points now; earned: own activity; referral: referrals'),
    metric: z.enum(['points', 'pnl', 'roi']).default('points').describe('points (by pointsType), pnl: the one P&L, roi: P&L over what was at stake'),
    players: z.enum(['all', 'humans', 'agents']).default('all').describe('humans: players without a bot mark; agents: agent accounts and accounts that trade by API key; NPCs count as neither'),
    period: z.enum(['day', 'week', 'season', 'all']).default('all').describe('for pnl and roi: since the last daily close, the last 7 days, the league season, or ever'),
  }),
  response: z.object({
    success: ZSuccess,
    pointsType: z.enum(['all', 'earned', 'referral']),
    metric: z.enum(['points', 'pnl', 'roi']),
    period: z.enum(['day', 'week', 'season', 'all']),
    players: z.enum(['all', 'humans', 'agents']),
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
