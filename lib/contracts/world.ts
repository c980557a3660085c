/** World endpoints: organizations, shipped game assets, an NPC actor's statistics. All public reads. */
import { z } from 'zod';
import { ZDecimalString, ZIdParam, ZSuccess } from './common';
import { defineEndpoint } from './endpoint';

export const ZOrganization = z.object({
  id: z.string(),
  ticker: z.string(),
  name: z.string(),
  description: z.string(),
  sector: z.string(),
  initialPrice: z.number(),
  currentPrice: z.number(),
  /** Price change against the newest index price point at least 24 h old (the oldest if none). */
  change24h: z.number(),
  changePercent24h: z.number(),
  logoUrl: z.string(),
});
export type TOrganization = z.infer<typeof ZOrganization>;

export const organizationsList = defineEndpoint({
  id: 'world.organizations',
  method: 'GET',
  path: '/api/organizations',
  summary: 'Every organization of the game world with its ticker, prices, 24 h change and logo',
  tag: 'world',
  auth: 'public',
  requires: ['read'],
  sameForEveryCaller: true,
  reads: 'replica',
  response: z.object({ success: ZSuccess, organizations: z.array(ZOrganization), count: z.number().int() }),
});

export const gameAssetsList = defineEndpoint({
  id: 'world.gameAssets',
  method: 'GET',
  path: '/api/game-assets',
  summary: 'Avatars of every NPC actor and logos of every organization (generated SVG shipped with the app)',
  tag: 'world',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  response: z.object({
    success: ZSuccess,
    actors: z.array(z.object({ id: z.string(), username: z.string(), displayName: z.string(), avatarUrl: z.string() })),
    organizations: z.array(z.object({ id: z.string(), ticker: z.string(), name: z.string(), logoUrl: z.string() })),
  }),
});

export const actorStats = defineEndpoint({
  id: 'world.actorStats',
  method: 'GET',
  path: '/api/actors/{actorId}/stats',
  summary: "An NPC actor's activity and book: posts, comments, likes received, follows, trades, open positions, balance and PnL",
  tag: 'world',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  params: z.object({ actorId: ZIdParam }),
  response: z.object({
    success: ZSuccess,
    actor: z.object({
      id: z.string(),
      username: z.string(),
      displayName: z.string(),
      bio: z.string().nullable(),
      avatarUrl: z.string(),
      profileImageUrl: z.string().nullable(),
      tier: z.enum(['S', 'A', 'B', 'C']),
      role: z.string(),
      organization: z.object({ id: z.string(), ticker: z.string(), name: z.string() }).nullable(),
    }),
    stats: z.object({
      posts: z.number().int(),
      comments: z.number().int(),
      likesReceived: z.number().int(),
      followers: z.number().int(),
      following: z.number().int(),
      /** Prediction buys and sales plus perpetual opens and closes. */
      trades: z.number().int(),
      predictionTrades: z.number().int(),
      perpTrades: z.number().int(),
      /** Prediction positions with shares, unsettled, plus open perpetual positions. */
      openPositions: z.number().int(),
      balance: ZDecimalString,
      totalDeposited: ZDecimalString,
      /** The one P&L (lib/equity): equity − contributions, realized and unrealized, fees and pools included. */
      lifetimePnL: ZDecimalString,
      /** What is still open less what it cost: prediction shares at the price, perps at the mark (margin as cost, funding included), pool stakes at the share price. */
      unrealizedPnL: z.number(),
      /** cash + positions at market + perps at the mark + pool stakes. */
      equity: ZDecimalString,
      reputationPoints: z.number().int(),
    }),
  }),
  errors: ['NOT_FOUND'],
});

export const worldEndpoints = [organizationsList, gameAssetsList, actorStats] as const;
