/**
 * The API's pool and lot shapes, and pool rows and holdings to them. Pure. The shapes (TPool,
 * TPoolLot) are owned here; lib/contracts/pools.ts documents them and checks the two agree.
 */
import type { TPoolDepositRow, TPoolRow } from '@/db/schema';
import { dec, toNumber, type TDecimal } from '@/lib/money/decimal';
import type { THoldings } from './holdings';
import { changePercent } from '@/lib/perps/math';
import { quoteWithdraw, sharePriceOf } from './math';

export type TPoolStats = {
  priceAgo: string | null;
  sparkline: number[];
  volume24h: string;
  investorCount: number;
};

export type TManager = { id: string; username: string; displayName: string; profileImageUrl: string | null };

/** The caller's stake in a pool, over all their lots. */
export type TPoolStake = { shares: number; value: number; costBasis: number; unrealizedPnL: number };

/** A pool as GET /api/pools lists it (timestamps ISO 8601 UTC). */
export type TPool = {
  id: string;
  npcActorId: string;
  name: string;
  description: string;
  tier: 'S' | 'A' | 'B' | 'C';
  /** NAV: cash plus positions marked at current prices. */
  totalValue: number;
  /** NAV less net deposits: what the manager's trading has made or lost. */
  lifetimePnL: number;
  performanceFeeRate: number;
  isActive: boolean;
  /** Share price change over 24 h, percent. */
  priceChange24h: number;
  /** Deposits, withdrawals and the pool's own trades over 24 h, in currency. */
  volume24h: number;
  sharePrice: number;
  totalShares: number;
  cash: number;
  positionsValue: number;
  openPositions: number;
  investorCount: number;
  manager: TManager;
  /** Share prices over the last 24 h (hourly, after the price the 24 h change is measured from), oldest first. */
  sparkline: number[];
  /** The caller's shares in this pool; null without a token or without shares here. */
  userStake: TPoolStake | null;
  createdAt: string;
};

/** A lot: one deposit, what it bought and what it still holds. */
export type TPoolLot = {
  id: string;
  poolId: string;
  poolName: string;
  /** The deposit record of the specification: amount paid, shares bought, share price paid. */
  amount: number;
  shares: number;
  sharePrice: number;
  remainingShares: number;
  costBasis: number;
  currentSharePrice: number;
  currentValue: number;
  unrealizedPnL: number;
  /** The performance fee a whole withdrawal would pay now. */
  pendingFee: number;
  withdrawnValue: number;
  realizedPnL: number;
  feesPaid: number;
  status: 'active' | 'withdrawn';
  isSeed: boolean;
  createdAt: string;
};

export function toPoolDto(
  pool: TPoolRow,
  manager: TManager,
  holdings: THoldings,
  stats: TPoolStats,
  stakeLots: readonly TPoolDepositRow[] | null,): TPool {
  const state = { nav: holdings.nav, totalShares: pool.totalShares };
  const price = sharePriceOf(state);
  let userStake: TPool['userStake'] = null;
  if (stakeLots) {
    const shares = stakeLots.reduce((s, l) => s.plus(l.remainingShares), dec(0));
    const cost = stakeLots.reduce((s, l) => s.plus(l.costBasis), dec(0));
    const value = shares.times(price).toDecimalPlaces(8, 1);
    userStake = { shares: toNumber(shares), value: toNumber(value), costBasis: toNumber(cost), unrealizedPnL: toNumber(value.minus(cost)) };
  }
  return {
    id: pool.id,
    npcActorId: pool.npcActorId,
    name: pool.name,
    description: pool.description,
    tier: pool.tier,
    totalValue: toNumber(holdings.nav),
    lifetimePnL: toNumber(holdings.nav.minus(pool.netDeposits)),
    performanceFeeRate: toNumber(pool.performanceFeeRate),
    isActive: pool.isActive,
    priceChange24h: toNumber(changePercent(stats.priceAgo, price).toDecimalPlaces(4)),
    volume24h: toNumber(stats.volume24h),
    sharePrice: toNumber(price.toDecimalPlaces(12, 1)),
    totalShares: toNumber(pool.totalShares),
    cash: toNumber(holdings.cash),
    positionsValue: toNumber(holdings.positionsValue),
    openPositions: holdings.perps.length + holdings.predictions.length,
    investorCount: stats.investorCount,
    manager,
    sparkline: stats.sparkline,
    userStake,
    createdAt: pool.createdAt.toISOString(),
  };
}

/** A lot with its value at the current share price and the fee a whole withdrawal would pay now. */
export function toLotDto(lot: TPoolDepositRow, pool: Pick<TPoolRow, 'id' | 'name' | 'totalShares' | 'performanceFeeRate' | 'npcActorId'>, nav: TDecimal): TPoolLot {
  const state = { nav, totalShares: pool.totalShares };
  const price = sharePriceOf(state);
  const remaining = dec(lot.remainingShares);
  const q = remaining.gt(0)
    ? quoteWithdraw(state, { shares: remaining, costBasis: lot.costBasis }, remaining, { feeRate: pool.performanceFeeRate, isManager: lot.userId === pool.npcActorId })
    : null;
  return {
    id: lot.id,
    poolId: lot.poolId,
    poolName: pool.name,
    amount: toNumber(lot.amount),
    shares: toNumber(lot.shares),
    sharePrice: toNumber(lot.sharePrice),
    remainingShares: toNumber(remaining),
    costBasis: toNumber(lot.costBasis),
    currentSharePrice: toNumber(price.toDecimalPlaces(12, 1)),
    currentValue: q ? toNumber(q.value) : 0,
    unrealizedPnL: q ? toNumber(q.pnl) : 0,
    pendingFee: q ? toNumber(q.performanceFee) : 0,
    withdrawnValue: toNumber(lot.withdrawnValue),
    realizedPnL: toNumber(lot.realizedPnL),
    feesPaid: toNumber(lot.feesPaid),
    status: remaining.gt(0) ? 'active' : 'withdrawn',
    isSeed: lot.isSeed,
    createdAt: lot.createdAt.toISOString(),
  };
}
