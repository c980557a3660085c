/** Perpetual futures: tickers, opening, the three close forms, history, the admin mark price. */
import { z } from 'zod';
import type { TPerpPosition, TPerpTapeTrade, TPerpTicker } from '@/lib/perps/dto';
import { ZDecimalString, ZIdParam, ZSuccess, ZTimestamp, zAmountInput, zCaseEnum, zQueryInt, type TSame } from './common';
import { defineEndpoint } from './endpoint';
import { marginClaim } from '@/lib/api-keys/limits';

/** Sizes, leverage and prices: a JSON number or a decimal string, within the engine's bounds (lib/perps/math.ts). */
const zPerpNumber = (min: number, max: number, description: string) => zAmountInput({ min, max, description }).transform(Number);
/** A preview (db/dry-run.ts): the same answer as the real call, and nothing changes. */
const ZDryRun = z.boolean().optional().describe('true: answer what the call would do now and change nothing');
const ZDryRunAnswer = z.literal(true).optional().describe('present when the request was a dry run: nothing changed');

export const ZPerpTicker = z.object({
  ticker: z.string(),
  organizationId: z.string(),
  name: z.string(),
  sector: z.string(),
  currentPrice: z.number(),
  price: z.number(),
  markPrice: z.number(),
  indexPrice: z.number(),
  change24h: z.number(),
  changePercent24h: z.number(),
  high24h: z.number(),
  low24h: z.number(),
  volume24h: z.number(),
  fundingRate: z.number().describe('Funding rate per 8-hour period the next funding would charge as the book stands (premium and open-interest imbalance); positive: longs pay shorts'),
  fundingRateAnnualized: z.number().describe('The same rate a year long: fundingRate × 3 × 365, not compounded'),
  nextFundingTime: ZTimestamp,
  openInterest: z.number(),
  openInterestLong: z.number(),
  openInterestShort: z.number(),
  /** Notional that would move the mark 100% (a trade's impact is size / depth, at most 1%). */
  depth: z.number(),
});

// lib/perps/dto.ts owns the ticker's, the position's and the tape trade's shapes; the schemas document exactly those (common.ts TSame).
export type { TPerpTicker };
const _perpTicker: TSame<z.infer<typeof ZPerpTicker>, TPerpTicker> = true;

export const ZPerpPosition = z.object({
  id: z.string(),
  userId: z.string(),
  ticker: z.string(),
  name: z.string(),
  side: z.enum(['long', 'short']),
  status: z.enum(['open', 'closed', 'liquidated']),
  entryPrice: z.number(),
  size: z.number(),
  units: z.number(),
  collateral: z.number(),
  margin: z.number(),
  leverage: z.number(),
  liquidationPrice: z.number(),
  currentPrice: z.number(),
  markPrice: z.number(),
  unrealizedPnL: z.number(),
  unrealizedPnLPercent: z.number(),
  fundingPaid: z.number(),
  openFee: z.number(),
  exitPrice: z.number().nullable(),
  realizedPnL: z.number().nullable(),
  netPnL: z.number().nullable(),
  openedAt: ZTimestamp,
  createdAt: ZTimestamp,
  closedAt: ZTimestamp.nullable(),
});
export type { TPerpPosition };
const _perpPosition: TSame<z.infer<typeof ZPerpPosition>, TPerpPosition> = true;

export const ZPerpCloseResult = z.object({
  success: ZSuccess,
  positionId: z.string(),
  position: ZPerpPosition,
  exitPrice: z.number(),
  realizedPnL: z.number(),
  fundingPaid: z.number(),
  fee: z.number(),
  netPnL: z.number(),
  newBalance: ZDecimalString,
  closedAt: ZTimestamp,
  dryRun: ZDryRunAnswer,
});

/** The two path forms of a close take no body, or only `{dryRun}`. */
const ZCloseBody = z.strictObject({ dryRun: ZDryRun });

const closeErrors = ['NOT_FOUND', 'FORBIDDEN', 'POSITION_CLOSED'] as const;

export const perpsList = defineEndpoint({
  id: 'perps.list',
  method: 'GET',
  path: '/api/markets/perps',
  summary: 'Every perpetual ticker with mark and index price, 24 h change and volume, funding rate and open interest',
  tag: 'perps',
  auth: 'public',
  requires: ['read'],
  sameForEveryCaller: true,
  reads: 'replica',
  response: z.object({ success: ZSuccess, tickers: z.array(ZPerpTicker), markets: z.array(ZPerpTicker) }),
});

export const perpsOpen = defineEndpoint({
  id: 'perps.open',
  method: 'POST',
  path: '/api/markets/perps/open',
  idempotent: true,
  summary: 'Open a leveraged long or short: debits margin (size / leverage) plus a 0.1% fee',
  tag: 'perps',
  auth: 'user',
  requires: ['trade'],
  rateLimit: 'perpOpen',
  keyCaps: marginClaim,
  body: z
    .strictObject({
      ticker: z.string().trim().min(1).max(20).transform((t) => t.toUpperCase()),
      side: zCaseEnum(['long', 'short'], 'lower'),
      size: zPerpNumber(1, 1e9, 'notional size in currency (1 to 1,000,000,000)').optional(),
      amount: zPerpNumber(1, 1e9, 'variant name of size').optional(),
      leverage: zPerpNumber(1, 100, 'leverage, 1 to 100 (at most 4 decimal places)'),
      dryRun: ZDryRun,
    })
    .refine((b) => b.size !== undefined || b.amount !== undefined, { message: 'size (or amount) is required', path: ['size'] })
    .transform((b) => ({ ticker: b.ticker, side: b.side, size: (b.size ?? b.amount)!, leverage: b.leverage, dryRun: b.dryRun })),
  response: z.object({
    success: ZSuccess,
    position: ZPerpPosition,
    fee: z.number(),
    newBalance: ZDecimalString,
    dryRun: ZDryRunAnswer,
  }),
  errors: ['VALIDATION_ERROR', 'INSUFFICIENT_BALANCE'],
});

const ZPositionIdParams = z.object({ positionId: ZIdParam });

export const perpsClose = defineEndpoint({
  id: 'perps.close',
  method: 'POST',
  path: '/api/markets/perps/{positionId}/close',
  idempotent: true,
  summary: 'Close a position at the mark: realized PnL, funding settled, margin and PnL credited',
  tag: 'perps',
  auth: 'user',
  requires: ['trade'],
  rateLimit: 'perpClose',
  params: ZPositionIdParams,
  body: ZCloseBody,
  response: ZPerpCloseResult,
  errors: closeErrors,
});

export const perpsCloseVariant = defineEndpoint({
  id: 'perps.closeVariant',
  method: 'POST',
  path: '/api/markets/perps/position/{positionId}/close',
  idempotent: true,
  summary: 'Close a position (variant form)',
  tag: 'perps',
  auth: 'user',
  requires: ['trade'],
  rateLimit: 'perpClose',
  params: ZPositionIdParams,
  body: ZCloseBody,
  response: ZPerpCloseResult,
  errors: closeErrors,
});

export const perpsCloseByBody = defineEndpoint({
  id: 'perps.closeByBody',
  method: 'POST',
  path: '/api/markets/perps/position',
  idempotent: true,
  summary: 'Close a position named in the body (variant form)',
  tag: 'perps',
  auth: 'user',
  requires: ['trade'],
  rateLimit: 'perpClose',
  body: z.strictObject({ positionId: ZIdParam, dryRun: ZDryRun }),
  response: ZPerpCloseResult,
  errors: closeErrors,
});

export const perpsHistory = defineEndpoint({
  id: 'perps.history',
  method: 'GET',
  path: '/api/markets/perps/tickers/{ticker}/history',
  summary: "A ticker's mark and index price points (trades, ticks, admin changes) for charts",
  tag: 'perps',
  auth: 'public',
  requires: ['read'],
  sameForEveryCaller: true,
  reads: 'replica',
  params: z.object({ ticker: z.string().min(1).max(20).transform((t) => t.toUpperCase()) }),
  query: z.object({ range: z.enum(['1h', '24h', '7d', '30d', 'all']).default('24h') }),
  response: z.object({
    success: ZSuccess,
    ticker: ZPerpTicker,
    history: z.array(z.object({ timestamp: ZTimestamp, time: z.number().int(), markPrice: z.number(), indexPrice: z.number(), price: z.number(), source: z.string() })),
    fundingHistory: z.array(z.object({ periodStart: ZTimestamp, rate: z.number(), markPrice: z.number(), indexPrice: z.number() })),
  }),
  errors: ['NOT_FOUND'],
});

const ZTickerParams = z.object({ ticker: z.string().min(1).max(20).transform((t) => t.toUpperCase()) });

export const ZPerpCandle = z.object({
  /** Bucket start, unix seconds (aligned to the interval from the epoch, UTC). */
  time: z.number().int(),
  timestamp: ZTimestamp,
  open: z.number(),
  high: z.number(),
  low: z.number(),
  close: z.number(),
  /** Price points in the bucket. */
  count: z.number().int(),
});
export type TPerpCandle = z.infer<typeof ZPerpCandle>;

export const perpsCandles = defineEndpoint({
  id: 'perps.candles',
  method: 'GET',
  path: '/api/markets/perps/tickers/{ticker}/candles',
  summary: "A ticker's mark price as OHLC candles per interval (empty buckets left out), from `from` or over a range",
  tag: 'perps',
  auth: 'public',
  requires: ['read'],
  sameForEveryCaller: true,
  reads: 'replica',
  params: ZTickerParams,
  query: z.object({
    interval: z.enum(['5m', '15m', '1h', '4h', '1d']).optional().describe('candle width; by default the one the range reads well with (1h: 5m, 24h: 1h, 7d: 4h, 30d and all: 1d)'),
    range: z.enum(['1h', '24h', '7d', '30d', 'all']).default('24h'),
    from: z.iso.datetime({ offset: true }).max(40).optional().describe('start of the window (overrides range); aligned down to the interval'),
  }),
  response: z.object({
    success: ZSuccess,
    ticker: z.string(),
    interval: z.enum(['5m', '15m', '1h', '4h', '1d']),
    intervalSeconds: z.number().int(),
    from: ZTimestamp.nullable(),
    markPrice: z.number(),
    candles: z.array(ZPerpCandle),
  }),
  errors: ['NOT_FOUND'],
});

export const ZPerpTapeTrade = z.object({
  id: z.string(),
  side: z.enum(['long', 'short']),
  action: z.enum(['open', 'close', 'liquidation']),
  /** Notional traded. */
  size: z.number(),
  price: z.number(),
  createdAt: ZTimestamp,
  timestamp: ZTimestamp,
  /** Whether the caller made it (false without a token). */
  isMine: z.boolean(),
});
export type { TPerpTapeTrade };
const _perpTapeTrade: TSame<z.infer<typeof ZPerpTapeTrade>, TPerpTapeTrade> = true;

export const perpsTickerTrades = defineEndpoint({
  id: 'perps.tickerTrades',
  method: 'GET',
  path: '/api/markets/perps/tickers/{ticker}/trades',
  summary: "A ticker's latest trades (opens, closes, liquidations), newest first, without who made them",
  tag: 'perps',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  params: ZTickerParams,
  query: z.object({ limit: zQueryInt({ default: 30, min: 1, max: 100 }) }),
  response: z.object({ success: ZSuccess, ticker: z.string(), trades: z.array(ZPerpTapeTrade) }),
  errors: ['NOT_FOUND'],
});

export const perpsUserPositions = defineEndpoint({
  id: 'perps.myPositions',
  method: 'GET',
  path: '/api/markets/perps/positions',
  summary: "The caller's perpetual positions: open, or closed and liquidated with their results",
  tag: 'perps',
  auth: 'user',
  requires: ['read'],
  query: z.object({
    status: z.enum(['open', 'closed', 'all']).default('open'),
    ticker: z.string().min(1).max(20).transform((t) => t.toUpperCase()).optional(),
    limit: zQueryInt({ default: 50, min: 1, max: 100 }),
  }),
  response: z.object({ success: ZSuccess, positions: z.array(ZPerpPosition) }),
});

export const adminPerpPrice = defineEndpoint({
  id: 'admin.perpPrice',
  method: 'POST',
  path: '/api/admin/perps/{ticker}/price',
  summary: 'Set a ticker mark price (admin); liquidations due at that price run before the answer',
  tag: 'admin',
  auth: 'user',
  requires: ['admin'],
  params: z.object({ ticker: z.string().min(1).max(20).transform((t) => t.toUpperCase()) }),
  body: z.strictObject({ price: zAmountInput({ min: 0, exclusiveMin: true, max: 1e12, description: 'the new mark price' }).transform(Number) }),
  response: z.object({ success: ZSuccess, ticker: ZPerpTicker, liquidated: z.number().int(), liquidatedPositionIds: z.array(z.string()) }),
  errors: ['FORBIDDEN', 'NOT_FOUND', 'VALIDATION_ERROR'],
});

export const perpsEndpoints = [
  perpsList,
  perpsOpen,
  perpsClose,
  perpsCloseVariant,
  perpsCloseByBody,
  perpsHistory,
  perpsCandles,
  perpsTickerTrades,
  perpsUserPositions,
  adminPerpPrice,
] as const;
