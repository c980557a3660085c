/**
 * A user's public track record and trade history (additive endpoints beyond the specification).
 * Its own file because it is built from the markets and perps shapes, and markets' contract
 * imports users': kept in users.ts it would close an import cycle.
 */
import { z } from 'zod';
import { ZSuccess, ZUserIdParams, zQueryInt } from './common';
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

export const trackRecordEndpoints = [usersTrackRecord, usersTrades] as const;
