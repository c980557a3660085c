/** Pool rows and holdings → the API's shapes (lib/contracts/pools.ts). Pure. */
import type { TPoolDepositRow, TPoolRow } from '@/db/schema';
import type { TPool, TPoolLot } from '@/lib/contracts/pools';
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

export const toPoolDto = (
  pool: TPoolRow,
  manager: TManager,
  holdings: THoldings,
  stats: TPoolStats,
  stakeLots: readonly TPoolDepositRow[] | null,
): TPool => {
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
};

/** A lot with its value at the current share price and the fee a whole withdrawal would pay now. */
export const toLotDto = (lot: TPoolDepositRow, pool: Pick<TPoolRow, 'id' | 'name' | 'totalShares' | 'performanceFeeRate' | 'npcActorId'>, nav: TDecimal): TPoolLot => {
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
};
