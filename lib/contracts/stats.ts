/** System statistics (public): players, actors, agents, activity, markets, perps, pools, posts, live clients. */
import { z } from 'zod';
import { ZDecimalString, ZSuccess, ZTimestamp } from './common';
import { defineEndpoint } from './endpoint';

export const statsGet = defineEndpoint({
  id: 'stats.get',
  method: 'GET',
  path: '/api/stats',
  summary: 'The system at a glance; figures are cached for a few seconds (computedAt says when)',
  tag: 'stats',
  auth: 'public',
  requires: ['read'],
  sameForEveryCaller: true,
  reads: 'replica',
  response: z.object({
    success: ZSuccess,
    stats: z.object({
      players: z.number().int(),
      npcActors: z.number().int(),
      agents: z.number().int(),
      activeUsers24h: z.number().int().describe('players and agents who traded, posted or commented in the last 24 hours'),
      openQuestions: z.number().int(),
      resolvedQuestions: z.number().int(),
      predictionVolume24h: ZDecimalString,
      perpsOpenInterest: ZDecimalString.describe('the notional size of every open perpetual position'),
      perpsVolume24h: ZDecimalString,
      poolAssets: ZDecimalString.describe("the pools' net asset value: cash plus open positions"),
      posts24h: z.number().int(),
      sseClients: z.number().int().describe('live event-stream clients of the instance that answered'),
      computedAt: ZTimestamp,
    }),
  }),
});

export const statsEndpoints = [statsGet] as const;
