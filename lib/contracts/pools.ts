/** Trading pools run by NPC actors: listing, detail, deposits, withdrawals, NPC investing and portfolios (lib/pools). */
import { z } from 'zod';
import type { TPool, TPoolLot } from '@/lib/pools/dto';
import { ZDecimalString, ZIdParam, ZSuccess, ZTimestamp, ZUserIdParams, zAmountInput, zCaseEnum, type TSame } from './common';
import { defineEndpoint, type TEndpoint } from './endpoint';
import { amountClaim } from '@/lib/api-keys/limits';

const ZTier = z.enum(['S', 'A', 'B', 'C']);
const POOL_AMOUNT_FIELDS = { amount: 'INVALID_TRADE_SIZE', shares: 'INVALID_TRADE_SIZE' } as const;
/** A preview (db/dry-run.ts): the same answer as the real call, and nothing changes. */
const ZDryRun = z.boolean().optional().describe('true: answer what the call would do now and change nothing');
const ZDryRunAnswer = z.literal(true).optional().describe('present when the request was a dry run: nothing changed');

export const ZPoolManager = z.object({
  id: z.string(),
  username: z.string(),
  displayName: z.string(),
  profileImageUrl: z.string().nullable(),
});

/** The caller's stake in a pool, over all their lots (only with a token). */
export const ZPoolStake = z.object({
  shares: z.number(),
  value: z.number(),
  costBasis: z.number(),
  unrealizedPnL: z.number(),
});

export const ZPool = z.object({
  id: z.string(),
  npcActorId: z.string(),
  name: z.string(),
  description: z.string(),
  tier: ZTier,
  /** NAV: cash plus positions marked at current prices. */
  totalValue: z.number(),
  /** NAV less net deposits: what the manager's trading has made or lost. */
  lifetimePnL: z.number(),
  performanceFeeRate: z.number(),
  isActive: z.boolean(),
  /** Share price change over 24 h, percent. */
  priceChange24h: z.number(),
  /** Deposits, withdrawals and the pool's own trades over 24 h, in currency. */
  volume24h: z.number(),
  sharePrice: z.number(),
  totalShares: z.number(),
  cash: z.number(),
  positionsValue: z.number(),
  openPositions: z.number().int(),
  investorCount: z.number().int(),
  manager: ZPoolManager,
  /** Share prices over the last 24 h (hourly, after the price the 24 h change is measured from), oldest first. */
  sparkline: z.array(z.number()),
  /** The caller's shares in this pool; null without a token or without shares here. */
  userStake: ZPoolStake.nullable(),
  createdAt: ZTimestamp,
});

// lib/pools/dto.ts owns the pool's and the lot's shapes; the schemas document exactly those (common.ts TSame).
export type { TPool };
const _pool: TSame<z.infer<typeof ZPool>, TPool> = true;

/** A lot: one deposit, what it bought and what it still holds. */
export const ZPoolLot = z.object({
  id: z.string(),
  poolId: z.string(),
  poolName: z.string(),
  /** The deposit record of the specification: amount paid, shares bought, share price paid. */
  amount: z.number(),
  shares: z.number(),
  sharePrice: z.number(),
  remainingShares: z.number(),
  costBasis: z.number(),
  currentSharePrice: z.number(),
  currentValue: z.number(),
  unrealizedPnL: z.number(),
  /** The performance fee a whole withdrawal would pay now. */
  pendingFee: z.number(),
  withdrawnValue: z.number(),
  realizedPnL: z.number(),
  feesPaid: z.number(),
  status: z.enum(['active', 'withdrawn']),
  isSeed: z.boolean(),
  createdAt: ZTimestamp,
});
export type { TPoolLot };
const _poolLot: TSame<z.infer<typeof ZPoolLot>, TPoolLot> = true;

export const ZPoolDeposit = z.object({ id: z.string(), poolId: z.string(), amount: z.number(), shares: z.number(), sharePrice: z.number(), createdAt: ZTimestamp });

export const ZPoolWithdrawal = z.object({
  id: z.string(),
  depositId: z.string(),
  poolId: z.string(),
  shares: z.number(),
  sharePrice: z.number(),
  value: z.number(),
  pnl: z.number(),
  performanceFee: z.number(),
  /** value − performanceFee: what reached the balance. */
  netAmount: z.number(),
  remainingShares: z.number(),
  createdAt: ZTimestamp,
});

export const ZPoolPerpHolding = z.object({
  id: z.string(),
  ticker: z.string(),
  side: z.enum(['long', 'short']),
  size: z.number(),
  units: z.number(),
  leverage: z.number(),
  entryPrice: z.number(),
  markPrice: z.number(),
  collateral: z.number(),
  value: z.number(),
  unrealizedPnL: z.number(),
  liquidationPrice: z.number(),
  openedAt: ZTimestamp,
});

export const ZPoolPredictionHolding = z.object({
  marketId: z.string(),
  question: z.string(),
  side: z.enum(['YES', 'NO']),
  shares: z.number(),
  price: z.number(),
  value: z.number(),
  costBasis: z.number(),
  unrealizedPnL: z.number(),
});

export const ZPoolActivity = z.object({
  id: z.string(),
  type: z.enum(['deposit', 'withdraw', 'perp_open', 'perp_close', 'pred_buy', 'pred_sell', 'pred_payout', 'liquidation', 'funding']),
  amount: z.number(),
  description: z.string(),
  user: z.object({ id: z.string(), username: z.string(), displayName: z.string() }).nullable(),
  timestamp: ZTimestamp,
});

export const ZNavPoint = z.object({ timestamp: ZTimestamp, time: z.number().int().describe('unix seconds'), sharePrice: z.number(), totalValue: z.number() });

const ZPoolIdParams = z.object({ id: ZIdParam });
const ZActorIdParams = z.object({ actorId: ZIdParam });

export const poolsList = defineEndpoint({
  id: 'pools.list',
  method: 'GET',
  path: '/api/pools',
  summary: 'Every trading pool with its NAV, share price, 24 h change and volume, fee rate and manager; with a token, the caller\'s stake',
  tag: 'pools',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  query: z.object({ tier: zCaseEnum(['S', 'A', 'B', 'C'], 'upper').optional().describe('only pools of this tier') }),
  response: z.object({ success: ZSuccess, pools: z.array(ZPool) }),
});

export const poolsDetail = defineEndpoint({
  id: 'pools.detail',
  method: 'GET',
  path: '/api/pools/{id}',
  summary: "A pool with its NAV history, open positions and recent activity; with a token, the caller's lots",
  tag: 'pools',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  params: ZPoolIdParams,
  query: z.object({ range: z.enum(['24h', '7d', '30d', 'all']).default('7d').describe('the NAV history window') }),
  response: z.object({
    success: ZSuccess,
    pool: ZPool,
    history: z.array(ZNavPoint),
    positions: z.object({ perps: z.array(ZPoolPerpHolding), predictions: z.array(ZPoolPredictionHolding) }),
    activity: z.array(ZPoolActivity),
    userDeposits: z.array(ZPoolLot),
  }),
  errors: ['NOT_FOUND'],
});

export const poolsDeposit = defineEndpoint({
  id: 'pools.deposit',
  method: 'POST',
  path: '/api/pools/{id}/deposit',
  idempotent: true,
  summary: 'Deposit into a pool at the current share price: shares = amount / sharePrice (never changes the share price of others)',
  tag: 'pools',
  auth: 'user',
  requires: ['trade'],
  rateLimit: 'poolTrade',
  params: ZPoolIdParams,
  fieldErrors: POOL_AMOUNT_FIELDS,
  keyCaps: amountClaim,
  body: z.strictObject({
    amount: zAmountInput({ min: 1, max: 1e12, description: 'currency to deposit, 1 to 1,000,000,000,000' }).transform(String),
    dryRun: ZDryRun,
  }),
  response: z.object({ success: ZSuccess, deposit: ZPoolDeposit, newBalance: ZDecimalString, dryRun: ZDryRunAnswer }),
  errors: ['NOT_FOUND', 'INSUFFICIENT_BALANCE', 'INVALID_TRADE_SIZE', 'POOL_INACTIVE'],
});

export const poolsWithdraw = defineEndpoint({
  id: 'pools.withdraw',
  method: 'POST',
  path: '/api/pools/{id}/withdraw',
  idempotent: true,
  summary:
    "Withdraw shares of one deposit (partly or wholly) at the current share price; a performance fee is charged on that lot's profit only",
  tag: 'pools',
  auth: 'user',
  requires: ['trade'],
  rateLimit: 'poolTrade',
  params: ZPoolIdParams,
  fieldErrors: POOL_AMOUNT_FIELDS,
  body: z.strictObject({
    depositId: ZIdParam,
    shares: zAmountInput({ min: 0, exclusiveMin: true, max: 1e15, description: 'shares of that deposit to withdraw' }).transform(String),
    dryRun: ZDryRun,
  }),
  response: z.object({ success: ZSuccess, withdrawal: ZPoolWithdrawal, newBalance: ZDecimalString, dryRun: ZDryRunAnswer }),
  errors: ['NOT_FOUND', 'FORBIDDEN', 'INSUFFICIENT_SHARES', 'INVALID_TRADE_SIZE', 'INSUFFICIENT_LIQUIDITY'],
});

export const poolsUserDeposits = defineEndpoint({
  id: 'pools.userDeposits',
  method: 'GET',
  path: '/api/pools/deposits/{userId}',
  summary: "A user's pool deposits (lots) with their current value and profit: the owner (or an administrator) only",
  tag: 'pools',
  auth: 'user',
  requires: ['read'],
  params: ZUserIdParams,
  response: z.object({
    success: ZSuccess,
    deposits: z.array(ZPoolLot),
    totals: z.object({ invested: z.number(), currentValue: z.number(), unrealizedPnL: z.number(), realizedPnL: z.number(), feesPaid: z.number() }),
  }),
  errors: ['FORBIDDEN', 'USER_NOT_FOUND'],
});

export const npcInvest = defineEndpoint({
  id: 'pools.npcInvest',
  method: 'POST',
  path: '/api/npc/{actorId}/invest',
  idempotent: true,
  summary:
    'Invest with an NPC actor: deposit into the pool it manages, or withdraw an amount from your lots there (oldest first) at the share price',
  tag: 'pools',
  auth: 'user',
  requires: ['trade'],
  rateLimit: 'poolTrade',
  params: ZActorIdParams,
  fieldErrors: POOL_AMOUNT_FIELDS,
  body: z.strictObject({
    action: zCaseEnum(['deposit', 'withdraw'], 'lower'),
    amount: zAmountInput({ min: 1, max: 1e12, description: 'currency to deposit, or the value to withdraw' }).transform(String),
  }),
  response: z.object({
    success: ZSuccess,
    transaction: z.object({
      id: z.string(),
      type: z.enum(['deposit', 'withdraw']),
      amount: z.number(),
      shares: z.number(),
      poolId: z.string(),
      sharePrice: z.number(),
      pnl: z.number(),
      performanceFee: z.number(),
    }),
    newBalance: ZDecimalString,
  }),
  errors: ['NOT_FOUND', 'INSUFFICIENT_BALANCE', 'INSUFFICIENT_SHARES', 'INVALID_TRADE_SIZE', 'POOL_INACTIVE', 'INSUFFICIENT_LIQUIDITY'],
});

export const npcPortfolio = defineEndpoint({
  id: 'pools.npcPortfolio',
  method: 'GET',
  path: '/api/npc/{actorId}/portfolio',
  summary: "The portfolio of the pool an NPC actor manages: its NAV and each position's size, value and profit",
  tag: 'pools',
  auth: 'user',
  requires: ['read'],
  reads: 'replica',
  params: ZActorIdParams,
  response: z.object({
    success: ZSuccess,
    portfolio: z.object({
      actorId: z.string(),
      poolId: z.string(),
      totalValue: z.number(),
      cash: z.number(),
      positions: z.array(
        z.object({
          ticker: z.string(),
          shares: z.number(),
          value: z.number(),
          pnl: z.number(),
          kind: z.enum(['perp', 'prediction']),
          side: z.enum(['long', 'short', 'YES', 'NO']),
          marketId: z.string().nullable(),
        }),
      ),
    }),
  }),
  errors: ['NOT_FOUND'],
});

export const poolsEndpoints: readonly TEndpoint[] = [poolsList, poolsDetail, poolsDeposit, poolsWithdraw, poolsUserDeposits, npcInvest, npcPortfolio];
