/**
 * Trading leagues: weekly seasons of game time, players grouped by size into divisions within
 * five tiers, ranked by risk-adjusted return (lib/leagues/math.ts), the top promoted and the
 * bottom relegated when the season ends.
 */
import { z } from 'zod';
import { ZDecimalString, ZIdParam, ZSuccess, ZTimestamp, zQueryInt, zQueryIntOptional } from './common';
import { defineEndpoint } from './endpoint';
import { ZRankedUser } from './standings';

export const ZTierName = z.enum(['bronze', 'silver', 'gold', 'platinum', 'diamond']);
const ZOutcome = z.enum(['promoted', 'relegated', 'stayed']);

export const ZSeason = z.object({
  id: z.string().describe('ISO week of game time, e.g. 2026-W48'),
  startsAt: ZTimestamp,
  endsAt: ZTimestamp,
  status: z.enum(['open', 'closed']),
  members: z.number().int(),
});

export const ZLeagueRules = z.object({
  formula: z.string(),
  minTrades: z.number().int(),
  minDays: z.number().int(),
  divisionSize: z.number().int(),
  promoteShare: z.number(),
  relegateShare: z.number(),
  volatilityFloor: z.number(),
});

const ZLeagueEntry = z.object({
  rank: z.number().int().positive().nullable().describe('null until the player qualifies'),
  user: ZRankedUser,
  kind: z.enum(['user', 'agent', 'actor']).describe('actor: an NPC of the world; agent: an automated player. Everyone is scored alike'),
  score: z.number(),
  seasonReturn: z.number().describe('time-weighted return over the season so far (0.05 = 5 %)'),
  volatility: z.number(),
  trades: z.number().int(),
  days: z.number().int().describe('daily returns counted so far'),
  qualified: z.boolean(),
  zone: z.enum(['promotion', 'relegation', 'safe']).nullable().describe('where the rank stands now; null when unqualified'),
  outcome: ZOutcome.nullable().describe('closed seasons: what happened'),
  startEquity: ZDecimalString,
});

const ZPlacement = z.object({ tier: z.number().int().min(0).max(4), tierName: ZTierName, division: z.number().int().positive() });

export const leaguesOverview = defineEndpoint({
  id: 'leagues.overview',
  method: 'GET',
  path: '/api/leagues',
  summary: "The current season (game time), its tiers and divisions, the rules, recent seasons, and with a token the caller's place",
  tag: 'standing',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  response: z.object({
    success: ZSuccess,
    season: ZSeason.nullable().describe('null before the first daily close of the world'),
    now: ZTimestamp.describe('game time: the season ends at endsAt of game time'),
    tiers: z.array(z.object({ tier: z.number().int(), tierName: ZTierName, divisions: z.number().int(), members: z.number().int() })),
    me: ZPlacement.nullable(),
    rules: ZLeagueRules,
    seasons: z.array(ZSeason).describe('the newest seasons, newest first'),
  }),
});

export const leaguesDivision = defineEndpoint({
  id: 'leagues.division',
  method: 'GET',
  path: '/api/leagues/division',
  summary: "A division's table: live scores while the season is open, final ranks and outcomes once closed (defaults: the current season and the caller's division, else the first division of the highest tier with players)",
  tag: 'standing',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  query: z.object({
    season: z.string().regex(/^\d{4}-W\d{2}$/, 'an ISO week such as 2026-W48').optional(),
    tier: zQueryIntOptional({ min: 0, max: 4 }).describe('0 bronze … 4 diamond; absent: the default'),
    division: zQueryInt({ default: 0, min: 0, max: 100_000 }).describe('1-based; 0 or absent: the default'),
  }),
  response: z.object({
    success: ZSuccess,
    season: ZSeason,
    now: ZTimestamp,
    placement: ZPlacement,
    divisions: z.number().int().describe('divisions in this tier'),
    entries: z.array(ZLeagueEntry),
    me: ZLeagueEntry.nullable(),
    rules: ZLeagueRules,
  }),
  errors: ['INVALID_PARAMETER', 'NOT_FOUND'],
});

export const userLeagueHistory = defineEndpoint({
  id: 'leagues.history',
  method: 'GET',
  path: '/api/users/{userId}/leagues',
  summary: "A player's league seasons, newest first: tier, division, rank, score and outcome",
  tag: 'standing',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  params: z.object({ userId: ZIdParam }),
  response: z.object({
    success: ZSuccess,
    history: z.array(
      ZPlacement.extend({
        seasonId: z.string(),
        startsAt: ZTimestamp,
        endsAt: ZTimestamp,
        status: z.enum(['open', 'closed']),
        rank: z.number().int().nullable(),
        score: z.number().nullable(),
        seasonReturn: z.number().nullable(),
        qualified: z.boolean().nullable(),
        outcome: ZOutcome.nullable(),
      }),
    ),
  }),
  errors: ['USER_NOT_FOUND'],
});

export const leaguesEndpoints = [leaguesOverview, leaguesDivision, userLeagueHistory] as const;
