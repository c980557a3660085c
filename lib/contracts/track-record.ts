/**
 * A user's public track record, trade history and P&L over time (additive endpoints beyond the specification).
 * Its own file because it is built from the markets and perps shapes, and markets' contract
 * imports users': kept in users.ts it would close an import cycle.
 */
import { z } from 'zod';
import { ZDecimalString, ZSuccess, ZTimestamp, ZUserIdParams, zQueryInt } from './common';
import { defineEndpoint } from './endpoint';
import { ZPredictionPosition, tradesList } from './markets';
import { ZPerpPosition } from './perps';

const ZCalibrationBucket = z.object({
  from: z.number().min(0).max(1),
  to: z.number().min(0).max(1),
  forecasts: z.number().int(),
  meanForecast: z.number().nullable().describe('the mean forecast in the bucket, null when empty'),
  outcomeRate: z.number().nullable().describe('how often its questions resolved YES, null when empty'),
});

export const usersTrackRecord = defineEndpoint({
  id: 'users.trackRecord',
  method: 'GET',
  path: '/api/users/{userId}/track-record',
  summary: "A user's public track record: open positions, realized PnL, trade counts and calibration (Brier score over resolved questions)",
  tag: 'users',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  rateLimit: 'profileRead',
  params: ZUserIdParams,
  response: z.object({
    success: ZSuccess,
    userId: z.string(),
    username: z.string(),
    openPositions: z.object({ predictions: z.array(ZPredictionPosition), perps: z.array(ZPerpPosition) }),
    unrealizedPnL: z.number(),
    realizedPnL: z.object({ total: z.number(), predictions: z.number(), perps: z.number(), pools: z.number() }),
    /** The one P&L (lib/equity): realized + unrealized, per product and in total, fees and pools included. */
    pnl: z.object({ total: z.number(), predictions: z.number(), perps: z.number(), pools: z.number() }),
    trades: z.object({ total: z.number().int(), predictions: z.number().int(), perps: z.number().int() }),
    closedPositions: z.number().int(),
    winningPositions: z.number().int(),
    winRate: z.number().min(0).max(1),
    resolvedMarkets: z.number().int(),
    calibration: z.object({
      brier: z.number().min(0).max(1).nullable().describe('mean squared error of the forecasts its buys implied; null before any resolved question'),
      resolvedForecasts: z.number().int(),
      buckets: z.array(ZCalibrationBucket),
    }),
  }),
  errors: ['USER_NOT_FOUND'],
});

export const usersTrades = defineEndpoint({
  id: 'users.trades',
  method: 'GET',
  path: '/api/users/{userId}/trades',
  summary: "A user's trades (prediction and perpetual), newest first, by page",
  tag: 'users',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  rateLimit: 'profileRead',
  params: ZUserIdParams,
  query: z.object({
    page: zQueryInt({ default: 1, min: 1, max: 500 }),
    limit: zQueryInt({ default: 20, min: 1, max: 100 }),
    type: z.enum(['all', 'prediction', 'perp']).default('all'),
  }),
  response: z.object({
    success: ZSuccess,
    trades: tradesList.response.shape.trades,
    pagination: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int(), pages: z.number().int() }),
  }),
  errors: ['USER_NOT_FOUND'],
});

const ZPnlPoint = z.object({
  at: ZTimestamp.describe("the daily close's moment, or now for the live point"),
  equity: ZDecimalString.nullable().describe('equity then (owner and administrators only; null for anyone else)'),
  pnl: ZDecimalString.describe('the one P&L then: equity − contributions so far (lib/equity)'),
  pnlPredictions: ZDecimalString.nullable().describe('its predictions part (null on closes before the split was recorded)'),
  pnlPerps: ZDecimalString.nullable(),
  pnlPools: ZDecimalString.nullable(),
  isLive: z.boolean().describe('the live point (now), not a daily close'),
});

export const usersPnlHistory = defineEndpoint({
  id: 'users.pnlHistory',
  method: 'GET',
  path: '/api/users/{userId}/pnl-history',
  summary:
    "A user's P&L over time: the daily closes in the range and a live point, split by product, with the range's P&L, ROI and maximum drawdown (equity figures for the owner and administrators only)",
  tag: 'users',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  rateLimit: 'profileRead',
  params: ZUserIdParams,
  query: z.object({ range: z.enum(['day', 'week', 'month', 'all']).default('month') }),
  response: z.object({
    success: ZSuccess,
    userId: z.string(),
    range: z.enum(['day', 'week', 'month', 'all']),
    showsEquity: z.boolean().describe('whether the equity figures are shown (the owner and administrators)'),
    points: z.array(ZPnlPoint).describe('oldest first: the last close on or before the range start, the closes since, and now'),
    summary: z.object({
      pnl: ZDecimalString.describe('P&L made over the range (all: since the account began)'),
      roi: ZDecimalString.describe('pnl ÷ (equity at the start + contributions during the range); all: pnl ÷ contributions; a fraction'),
      maxDrawdown: z.object({
        fraction: ZDecimalString.describe('the largest fall of equity from a running peak, as a fraction of the peak, in [0, 1]'),
        amount: ZDecimalString.nullable().describe('the largest such fall in money (owner and administrators only)'),
      }),
      startEquity: ZDecimalString.nullable(),
      endEquity: ZDecimalString.nullable(),
      products: z.object({ predictions: ZDecimalString, perps: ZDecimalString, pools: ZDecimalString }).nullable().describe("the range's P&L by product (Σ = pnl)"),
    }),
  }),
  errors: ['USER_NOT_FOUND'],
});

export const trackRecordEndpoints = [usersTrackRecord, usersTrades, usersPnlHistory] as const;
