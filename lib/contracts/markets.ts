/** Prediction markets: listing, trading, history, biases, widgets, positions, trades, admin. */
import { z } from 'zod';
import { ZIdParam, ZSuccess, ZTimestamp, zAmountInput, zCaseEnum, zQueryInt } from './common';
import { defineEndpoint } from './endpoint';
import { amountClaim } from '@/lib/api-keys/limits';
import { ZPerpPosition } from './perps';
import { ZAccountNumbers, ZUserSummary } from './users';

const ZOutcome = zCaseEnum(['YES', 'NO'], 'upper');
/**
 * Amounts arrive as JSON numbers; decimal strings are accepted too (exact input). Bounded far
 * below what the numeric columns hold (10^22), so no amount can overflow one: out of range is
 * INVALID_TRADE_SIZE, as the specification names a bad trade size.
 */
const ZBuyAmount = zAmountInput({ min: 0, exclusiveMin: true, max: 1e12, description: 'currency to spend (at least 1 after fees)' });
const ZSellShares = zAmountInput({ min: 0, exclusiveMin: true, max: 1e15, description: 'shares to sell' });
const TRADE_SIZE_FIELDS = { amount: 'INVALID_TRADE_SIZE', shares: 'INVALID_TRADE_SIZE' } as const;
/** A preview (db/dry-run.ts): the same answer as the real call, and nothing changes. */
const ZDryRun = z.boolean().optional().describe('true: answer what the call would do now and change nothing');
const ZDryRunAnswer = z.literal(true).optional().describe('present when the request was a dry run: nothing changed');

export const ZPredictionPosition = z.object({
  id: z.string(),
  marketId: z.string(),
  question: z.string(),
  side: z.enum(['YES', 'NO']),
  outcome: z.enum(['YES', 'NO']),
  shares: z.number(),
  avgPrice: z.number(),
  currentPrice: z.number(),
  costBasis: z.number(),
  value: z.number(),
  unrealizedPnL: z.number(),
  realizedPnL: z.number(),
  status: z.enum(['open', 'closed', 'settled']),
  payout: z.number().nullable(),
  createdAt: ZTimestamp,
  updatedAt: ZTimestamp,
});

export const ZMarket = z.object({
  id: z.string(),
  questionNumber: z.number().int(),
  text: z.string(),
  question: z.string(),
  status: z.enum(['active', 'resolved']),
  yesShares: z.number(),
  noShares: z.number(),
  yesPrice: z.number().min(0).max(1),
  noPrice: z.number().min(0).max(1),
  createdDate: ZTimestamp,
  createdAt: ZTimestamp,
  resolutionDate: ZTimestamp,
  endDate: ZTimestamp,
  liquidity: z.number(),
  volume: z.number(),
  volume24h: z.number(),
  priceChange24h: z.number(),
  change24h: z.number(),
  resolvedOutcome: z.enum(['YES', 'NO']).nullable(),
  outcome: z.enum(['YES', 'NO']).nullable().describe('the same as resolvedOutcome'),
  resolvedAt: ZTimestamp.nullable(),
  userPosition: ZPredictionPosition.nullable().optional(),
  topic: z.string().nullable().optional().describe("listings: the sector of the organization the question's rule is about (null: no rule)"),
  ticker: z.string().nullable().optional().describe("listings: the ticker of the organization the question's rule is about (null: no rule)"),
});
export type TMarket = z.infer<typeof ZMarket>;

const ZRuleOrganization = z.object({ id: z.string(), name: z.string(), ticker: z.string() });

/** One market with what its page explains: description and resolution criteria from its rule. */
export const ZMarketDetail = ZMarket.extend({
  description: z.string().describe("what the question is about, written from its rule"),
  resolutionCriteria: z.string().describe('what makes it YES or NO, when, and from which source in the world'),
  resolutionSource: z.enum(['price', 'event', 'market']).describe("price: an organization's price; event: world news; market: its own YES price (no rule)"),
  organization: ZRuleOrganization.nullable().describe("the organization the question's rule is about"),
  topic: z.string().nullable().describe("the organization's sector"),
  ticker: z.string().nullable(),
});
export type TMarketDetail = z.infer<typeof ZMarketDetail>;

const ZFees = z.object({ total: z.number(), platform: z.number(), referrer: z.number() });
const ZMarketIdParams = z.object({ id: ZIdParam });

export const predictionsList = defineEndpoint({
  id: 'predictions.list',
  method: 'GET',
  path: '/api/markets/predictions',
  summary: 'Prediction markets by status, with the user position when userId is given',
  tag: 'markets',
  auth: 'public',
  requires: ['read'],
  sameForEveryCaller: true,
  reads: 'replica',
  rateLimit: 'predictionsList',
  query: z.object({
    status: z.enum(['active', 'resolved', 'all']).default('active'),
    userId: z.string().min(1).max(200).optional().describe("adds this user's position to each question; one that names no user has none (200)"),
    page: zQueryInt({ default: 1, min: 1 }),
    limit: zQueryInt({ default: 20, min: 1, max: 100 }),
    q: z
      .string()
      .max(200)
      .optional()
      .transform((s) => s?.trim() || undefined)
      .describe('search: words the question text contains (case-insensitive)'),
    sort: z
      .enum(['newest', 'volume', 'closing', 'movers'])
      .default('newest')
      .describe('newest first (the default), by volume, closing soonest, or movers (largest absolute 24 h YES move)'),
    topic: z.string().min(1).max(100).optional().describe("the sector of the organization a question's rule is about"),
    ticker: z
      .string()
      .min(1)
      .max(20)
      .optional()
      .transform((s) => s?.replace(/^\$/, '').toUpperCase())
      .describe("the ticker of the organization a question's rule is about ($ optional, any case)"),
  }),
  response: z.object({
    success: ZSuccess,
    questions: z.array(ZMarket),
    markets: z.array(ZMarket),
    count: z.number().int(),
    total: z.number().int(),
    pagination: z.object({ page: z.number(), limit: z.number(), total: z.number(), pages: z.number() }),
    facets: z
      .object({ topics: z.array(z.string()), tickers: z.array(z.string()) })
      .describe('the topics and tickers the questions are about, for the filters'),
  }),
});

export const predictionsGet = defineEndpoint({
  id: 'predictions.get',
  method: 'GET',
  path: '/api/markets/predictions/{id}',
  summary: 'One prediction market, with its description and resolution criteria',
  tag: 'markets',
  auth: 'public',
  requires: ['read'],
  sameForEveryCaller: true,
  reads: 'replica',
  rateLimit: 'predictionsList',
  params: ZMarketIdParams,
  response: z.object({ success: ZSuccess, market: ZMarketDetail }),
  errors: ['NOT_FOUND'],
});

const ZHolder = z.object({
  user: ZUserSummary,
  side: z.enum(['YES', 'NO']),
  outcome: z.enum(['YES', 'NO']),
  shares: z.number(),
  avgPrice: z.number(),
  value: z.number().describe('shares at the current price of their side'),
});

export const predictionsHolders = defineEndpoint({
  id: 'predictions.holders',
  method: 'GET',
  path: '/api/markets/predictions/{id}/holders',
  summary: 'Top holders of a market on each side, largest first (people the caller has a block with are left out)',
  tag: 'markets',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  params: ZMarketIdParams,
  query: z.object({ limit: zQueryInt({ default: 10, min: 1, max: 50 }) }),
  response: z.object({
    success: ZSuccess,
    marketId: z.string(),
    yes: z.array(ZHolder),
    no: z.array(ZHolder),
    holders: z.array(ZHolder).describe('both sides together, largest first'),
    yesHolderCount: z.number().int(),
    noHolderCount: z.number().int(),
  }),
  errors: ['NOT_FOUND'],
});

const ZNewsItem = z.object({
  id: z.string(),
  kind: z.string(),
  title: z.string(),
  content: z.string(),
  impact: z.number().describe("signed push on the organization's fair value (0.03 = +3%)"),
  organization: ZRuleOrganization.nullable(),
  createdAt: ZTimestamp,
  timestamp: ZTimestamp,
});

export const predictionsNews = defineEndpoint({
  id: 'predictions.news',
  method: 'GET',
  path: '/api/markets/predictions/{id}/news',
  summary: 'World news that bears on the question, newest first',
  tag: 'markets',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  params: ZMarketIdParams,
  query: z.object({ limit: zQueryInt({ default: 10, min: 1, max: 50 }) }),
  response: z.object({ success: ZSuccess, marketId: z.string(), news: z.array(ZNewsItem), count: z.number().int() }),
  errors: ['NOT_FOUND'],
});

export const predictionsPosts = defineEndpoint({
  id: 'predictions.posts',
  method: 'GET',
  path: '/api/markets/predictions/{id}/posts',
  summary: 'Posts about the question (relatedQuestion), newest first, that the caller may see; their comments are at /api/posts/{id}/comments',
  tag: 'markets',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  params: ZMarketIdParams,
  query: z.object({ limit: zQueryInt({ default: 10, min: 1, max: 50 }) }),
  response: z.object({
    success: ZSuccess,
    marketId: z.string(),
    posts: z.array(
      z.object({
        id: z.string(),
        authorId: z.string(),
        author: ZUserSummary,
        content: z.string(),
        commentsCount: z.number().int(),
        likesCount: z.number().int(),
        createdAt: ZTimestamp,
      }),
    ),
    count: z.number().int(),
    commentsCount: z.number().int().describe('comments on those posts together'),
  }),
  errors: ['NOT_FOUND'],
});

export const predictionsBuy = defineEndpoint({
  id: 'predictions.buy',
  method: 'POST',
  path: '/api/markets/predictions/{id}/buy',
  idempotent: true,
  summary: 'Buy YES or NO shares (0.1% fee, minimum 1)',
  tag: 'markets',
  auth: 'user',
  requires: ['trade'],
  rateLimit: 'predictionsTrade',
  params: ZMarketIdParams,
  fieldErrors: TRADE_SIZE_FIELDS,
  keyCaps: amountClaim,
  body: z
    .strictObject({ outcome: ZOutcome.optional(), side: ZOutcome.optional(), amount: ZBuyAmount, dryRun: ZDryRun })
    .refine((b) => b.outcome ?? b.side, { message: 'outcome (YES or NO) is required', path: ['outcome'] })
    .transform((b) => ({ outcome: (b.outcome ?? b.side)!, amount: b.amount, dryRun: b.dryRun })),
  response: z.object({
    success: ZSuccess,
    position: z.object({
      id: z.string(),
      marketId: z.string(),
      side: z.enum(['YES', 'NO']),
      outcome: z.enum(['YES', 'NO']),
      shares: z.number(),
      avgPrice: z.number(),
      costBasis: z.number(),
    }),
    newBalance: z.string(),
    fees: ZFees,
    shares: z.number(),
    avgPrice: z.number(),
    positionId: z.string(),
    yesPrice: z.number(),
    noPrice: z.number(),
    marketId: z.string(),
    dryRun: ZDryRunAnswer,
  }),
  errors: ['INSUFFICIENT_BALANCE', 'NOT_FOUND', 'INVALID_TRADE_SIZE', 'MARKET_CLOSED'],
});

export const predictionsSell = defineEndpoint({
  id: 'predictions.sell',
  method: 'POST',
  path: '/api/markets/predictions/{id}/sell',
  idempotent: true,
  summary: 'Sell shares by positionId, or (variant) by outcome',
  tag: 'markets',
  auth: 'user',
  requires: ['trade'],
  rateLimit: 'predictionsTrade',
  params: ZMarketIdParams,
  fieldErrors: TRADE_SIZE_FIELDS,
  body: z
    .strictObject({
      positionId: z.string().min(1).max(200).optional(),
      outcome: ZOutcome.optional(),
      side: ZOutcome.optional(),
      shares: ZSellShares,
      dryRun: ZDryRun,
    })
    .refine((b) => b.positionId ?? b.outcome ?? b.side, { message: 'positionId or outcome is required', path: ['positionId'] })
    .transform((b) => ({ positionId: b.positionId, outcome: b.outcome ?? b.side, shares: b.shares, dryRun: b.dryRun })),
  response: z.object({
    success: ZSuccess,
    proceeds: z.number(),
    realizedPnL: z.number(),
    remainingShares: z.number(),
    newBalance: z.string(),
    positionId: z.string(),
    side: z.enum(['YES', 'NO']),
    outcome: z.enum(['YES', 'NO']),
    sharesSold: z.number(),
    avgPrice: z.number().describe('average price per share sold, before the fee'),
    fees: ZFees,
    yesPrice: z.number(),
    noPrice: z.number(),
    marketId: z.string(),
    dryRun: ZDryRunAnswer,
  }),
  errors: ['INSUFFICIENT_SHARES', 'NOT_FOUND', 'INVALID_TRADE_SIZE', 'MARKET_CLOSED'],
});

const ZPricePoint = z.object({
  timestamp: ZTimestamp,
  time: z.number().int(),
  yesPrice: z.number(),
  noPrice: z.number(),
  yesShares: z.number(),
  noShares: z.number(),
  source: z.string(),
});

export const predictionsHistory = defineEndpoint({
  id: 'predictions.history',
  method: 'GET',
  path: '/api/markets/predictions/{id}/history',
  summary: 'Price history (a point per trade and per tick), thinned to at most 300 points',
  tag: 'markets',
  auth: 'public',
  requires: ['read'],
  sameForEveryCaller: true,
  reads: 'replica',
  params: ZMarketIdParams,
  query: z.object({ range: z.enum(['1h', '24h', '7d', '30d', 'all']).default('all') }),
  response: z.object({
    success: ZSuccess,
    marketId: z.string(),
    range: z.string(),
    points: z.array(ZPricePoint),
    history: z.array(ZPricePoint),
  }),
  errors: ['NOT_FOUND'],
});

export const biasActive = defineEndpoint({
  id: 'markets.biasActive',
  method: 'GET',
  path: '/api/markets/bias/active',
  summary: 'Active market biases: sentiment adjustment, price impact, decay rate, expiration',
  tag: 'markets',
  auth: 'public',
  requires: ['read'],
  response: z.object({
    success: ZSuccess,
    count: z.number().int(),
    biases: z.array(
      z.object({
        id: z.string(),
        marketId: z.string(),
        question: z.string(),
        direction: z.enum(['YES', 'NO']),
        adjustment: z.number(),
        sentimentAdjustment: z.number(),
        priceImpact: z.number(),
        decayRate: z.number(),
        reason: z.string(),
        expiresAt: ZTimestamp,
        expiration: ZTimestamp,
        createdAt: ZTimestamp,
      }),
    ),
  }),
});

export const marketsPositions = defineEndpoint({
  id: 'markets.positions',
  method: 'GET',
  path: '/api/markets/positions/{userId}',
  summary: "A user's open positions: predictions and perpetuals, with unrealized PnL and value totals",
  tag: 'markets',
  auth: 'user',
  requires: ['read'],
  params: z.object({ userId: ZIdParam }),
  response: z.object({
    success: ZSuccess,
    predictions: z.array(ZPredictionPosition),
    perps: z.array(ZPerpPosition),
    perpetuals: z.array(ZPerpPosition),
    totalPnL: z.number(),
    totalUnrealizedPnL: z.number(),
    totalValue: z.number(),
    /** Only for the owner and administrators: the account's equity and P&L (cash is owner-only). */
    account: ZAccountNumbers.optional(),
  }),
  errors: ['USER_NOT_FOUND'],
});

export const tradesList = defineEndpoint({
  id: 'trades.list',
  method: 'GET',
  path: '/api/trades',
  summary: 'Recent trades (prediction and perpetual), newest first, optionally of one user, question or ticker',
  tag: 'markets',
  auth: 'user',
  requires: ['read'],
  reads: 'replica',
  query: z.object({
    limit: zQueryInt({ default: 50, min: 1, max: 100 }),
    offset: zQueryInt({ default: 0, max: 10_000 }),
    type: z.enum(['all', 'prediction', 'perp']).default('all'),
    userId: z.string().min(1).max(200).optional().describe("only this user's trades; one that names no user matches none (200, empty)"),
    marketId: z.string().min(1).max(200).optional(),
  }),
  response: z.object({
    success: ZSuccess,
    trades: z.array(
      z.object({
        id: z.string(),
        type: z.enum(['prediction', 'perp']),
        action: z.enum(['buy', 'sell', 'open', 'close', 'liquidation']),
        userId: z.string(),
        user: z.object({ id: z.string(), username: z.string(), displayName: z.string(), profileImageUrl: z.string().nullable() }),
        marketId: z.string().describe('the question id of a prediction trade, the ticker of a perpetual trade'),
        ticker: z.string().optional().describe('perpetual trades only'),
        question: z.string(),
        positionId: z.string(),
        side: z.enum(['YES', 'NO', 'long', 'short']),
        outcome: z.enum(['YES', 'NO']).nullable(),
        amount: z.number(),
        size: z.number().optional().describe('perpetual trades only: the notional traded'),
        shares: z.number(),
        price: z.number(),
        fee: z.number(),
        yesPriceAfter: z.number().optional().describe('prediction trades only: the YES price after the trade'),
        orderId: z.string().nullable().optional().describe('prediction trades only: the limit order this trade filled, if any'),
        realizedPnL: z.number().nullable().optional().describe('perpetual trades only: the PnL a close or liquidation realized'),
        createdAt: ZTimestamp,
        timestamp: ZTimestamp,
      }),
    ),
    count: z.number().int(),
    total: z.number().int(),
    pagination: z.object({ limit: z.number(), offset: z.number(), total: z.number() }),
  }),
});

export const adminCreateMarket = defineEndpoint({
  id: 'admin.createMarket',
  method: 'POST',
  path: '/api/admin/markets',
  summary: 'Create a question (admin)',
  tag: 'admin',
  auth: 'user',
  requires: ['admin'],
  body: z.strictObject({
    text: z.string().trim().min(10, 'a question is at least 10 characters').max(500),
    resolutionDate: z.iso.datetime({ offset: true }).max(40).transform((s) => new Date(s)),
    liquidity: z.number().min(10).max(1_000_000).optional(),
  }),
  response: z.object({ success: ZSuccess, market: ZMarket }),
  errors: ['FORBIDDEN', 'VALIDATION_ERROR'],
});

export const adminResolveMarket = defineEndpoint({
  id: 'admin.resolveMarket',
  method: 'POST',
  path: '/api/admin/markets/{id}/resolve',
  summary: 'Resolve a question (admin): every winning share pays 1; resolving again pays nothing',
  tag: 'admin',
  auth: 'user',
  requires: ['admin'],
  params: ZMarketIdParams,
  body: z.strictObject({ outcome: ZOutcome }),
  response: z.object({
    success: ZSuccess,
    market: ZMarket,
    alreadyResolved: z.boolean(),
    positionsPaid: z.number().int(),
    totalPayout: z.number(),
  }),
  errors: ['FORBIDDEN', 'NOT_FOUND'],
});

export const marketsEndpoints = [
  predictionsList,
  predictionsGet,
  predictionsHolders,
  predictionsNews,
  predictionsPosts,
  predictionsBuy,
  predictionsSell,
  predictionsHistory,
  biasActive,
  marketsPositions,
  tradesList,
  adminCreateMarket,
  adminResolveMarket,
] as const;
