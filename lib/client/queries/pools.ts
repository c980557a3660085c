/**
 * Trading pools in the browser: the list, one pool's page (NAV history, the manager's positions,
 * recent activity, the caller's lots), the signed-in user's lots across pools, depositing and
 * withdrawing, and the deposit and withdraw previews. queryOptions factories own every query key;
 * hooks and invalidations go through them. The previews run the same pure accounting as the
 * server (lib/pools/math), so what a panel shows is what the deposit or withdrawal does (at the
 * NAV the page last saw: the server prices at its own, current one).
 * I/O: the typed client only.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/client/api';
import type { TEndpointResponse } from '@/lib/contracts/endpoint';
import { poolsDeposit, poolsDetail, poolsList, poolsUserDeposits, poolsWithdraw, type TPool, type TPoolLot } from '@/lib/contracts/pools';
import { D, dec, type TDecimal } from '@/lib/money/decimal';
import { depositProblem, MIN_DEPOSIT, quoteDeposit, quoteWithdraw, withdrawProblem } from '@/lib/pools/math';
import type { TErrorMessages } from './errors';
import { getBalanceQueryOptions, getMeQueryOptions } from './users';

export type { TPool, TPoolLot };
export type TPoolRange = '24h' | '7d' | '30d' | 'all';
export type TPoolTier = TPool['tier'];
export type TPoolDetail = TEndpointResponse<typeof poolsDetail>;
export type TPoolNavPoint = TPoolDetail['history'][number];
export type TPoolPerpHolding = TPoolDetail['positions']['perps'][number];
export type TPoolPredictionHolding = TPoolDetail['positions']['predictions'][number];
export type TPoolActivity = TPoolDetail['activity'][number];
export type TMyPoolDeposits = TEndpointResponse<typeof poolsUserDeposits>;
export type TPoolWithdrawal = TEndpointResponse<typeof poolsWithdraw>['withdrawal'];

/** The range the pool page opens on (and the one its header, panels and lots read). */
export const DEFAULT_POOL_RANGE: TPoolRange = '7d';

const keys = {
  all: ['pools'] as const,
  lists: () => [...keys.all, 'list'] as const,
  details: () => [...keys.all, 'detail'] as const,
  detailsOf: (id: string) => [...keys.details(), id] as const,
  detail: (id: string, range: TPoolRange) => [...keys.detailsOf(id), range] as const,
  deposits: (userId: string) => [...keys.all, 'deposits', userId] as const,
};

// ---------------------------------------------------------------------------------------------
// Pools

/** Every pool, best tier first; with a session each carries the caller's stake. */
export function getPoolsQueryOptions() {
  return queryOptions({
    queryKey: keys.lists(),
    queryFn: async () => (await api(poolsList)).pools,
  });
}

export function usePools() {
  return useQuery(getPoolsQueryOptions());
}

/** One pool's page for a NAV range: the pool, its history, positions, activity and the caller's lots. */
export function getPoolQueryOptions(id: string, range: TPoolRange = DEFAULT_POOL_RANGE) {
  return queryOptions({
    queryKey: keys.detail(id, range),
    queryFn: () => api(poolsDetail, { params: { id }, query: { range } }),
  });
}

export function usePool(id: string, range: TPoolRange = DEFAULT_POOL_RANGE) {
  return useQuery(getPoolQueryOptions(id, range));
}

// ---------------------------------------------------------------------------------------------
// NAV chart and sparkline (plotting only: plain numbers)

const RANGE_SECONDS: Record<TPoolRange, number | null> = { '24h': 86_400, '7d': 604_800, '30d': 2_592_000, all: null };

export type TPoolChartPoint = { time: number; totalValue: number; sharePrice: number };

/**
 * The NAV line to draw, oldest first, in unix seconds (read from each point's timestamp). NAV
 * points exist only where a deposit, withdrawal, trade or tick happened, so the line is extended
 * to `now` at the pool's current figures, and a range without points is drawn flat.
 */
export function toPoolChartSeries(
  points: readonly TPoolNavPoint[],
  pool: Pick<TPool, 'totalValue' | 'sharePrice' | 'createdAt'>,
  range: TPoolRange,
  nowSeconds: number,): TPoolChartPoint[] {
  const series = points
    .map((p) => ({ time: Math.floor(Date.parse(p.timestamp) / 1000), totalValue: p.totalValue, sharePrice: p.sharePrice }))
    .sort((a, b) => a.time - b.time);
  const current = { time: nowSeconds, totalValue: pool.totalValue, sharePrice: pool.sharePrice };
  if (series.length === 0) {
    const span = RANGE_SECONDS[range];
    const created = Math.floor(Date.parse(pool.createdAt) / 1000);
    const start = span === null ? created : nowSeconds - span;
    return [{ ...current, time: Math.min(start, nowSeconds - 60) }, current];
  }
  if (series.at(-1)!.time < nowSeconds) series.push(current);
  return series;
}

/**
 * The pool page's chart line for a range ("now" is when the page was fetched). Switching range
 * keeps the previous line on screen until the new one arrives (never another pool's line).
 */
export function usePoolChartSeries(pool: Pick<TPool, 'id' | 'totalValue' | 'sharePrice' | 'createdAt'>, range: TPoolRange) {
  const query = useQuery({
    ...getPoolQueryOptions(pool.id, range),
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === pool.id ? previous : undefined),
  });
  const series = query.data ? toPoolChartSeries(query.data.history, pool, range, Math.floor(query.dataUpdatedAt / 1000)) : null;
  return { ...query, series };
}

/**
 * A list row's 24-hour sparkline: the server's line (it starts at the price `priceChange24h` is
 * measured from), ending at the current price, so the line agrees with the change beside it.
 */
export function poolSparkline(pool: Pick<TPool, 'sparkline' | 'sharePrice'>) {
  const values = pool.sparkline.length > 0 ? [...pool.sparkline] : [pool.sharePrice];
  if (values.at(-1) !== pool.sharePrice) values.push(pool.sharePrice);
  return values;
}

// ---------------------------------------------------------------------------------------------
// The signed-in user's lots, across pools (owner only)

export function getMyPoolDepositsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: keys.deposits(userId),
    queryFn: () => api(poolsUserDeposits, { params: { userId } }),
  });
}

/** Lots that still hold shares come first (newest first), then those withdrawn in full. */
const selectMyDeposits = (data: TMyPoolDeposits) => ({
  ...data,
  active: data.deposits.filter((d) => d.status === 'active'),
  withdrawn: data.deposits.filter((d) => d.status === 'withdrawn'),
});

export function useMyPoolDeposits(userId: string | undefined) {
  return useQuery({ ...getMyPoolDepositsQueryOptions(userId ?? ''), enabled: !!userId, select: selectMyDeposits });
}

// ---------------------------------------------------------------------------------------------
// Depositing and withdrawing

/** Everything a deposit or withdrawal changes: every pool query (NAV, stake, lots), the user's lots and balance. */
const useInvalidateAfterPoolTrade = () => {
  const qc = useQueryClient();
  return (userId: string | undefined) =>
    Promise.all([
      qc.invalidateQueries({ queryKey: keys.lists() }),
      qc.invalidateQueries({ queryKey: keys.details() }),
      qc.invalidateQueries({ queryKey: getMeQueryOptions().queryKey }),
      ...(userId
        ? [
            qc.invalidateQueries({ queryKey: keys.deposits(userId) }),
            qc.invalidateQueries({ queryKey: getBalanceQueryOptions(userId).queryKey }),
          ]
        : []),
    ]);
};

export function useDepositToPool(poolId: string, userId: string | undefined) {
  const invalidate = useInvalidateAfterPoolTrade();
  return useMutation({
    mutationFn: (amount: string) => api(poolsDeposit, { params: { id: poolId }, body: { amount } }),
    onSettled: () => invalidate(userId),
  });
}

/**
 * Withdraws shares of one lot. Share counts reach the browser as JSON numbers, a hair off the
 * exact 18-decimal holding; the server treats a count within 1e-9 of the lot as the whole lot, so
 * "100%" just sends the number it was given.
 */
export function useWithdrawFromPool(poolId: string, userId: string | undefined) {
  const invalidate = useInvalidateAfterPoolTrade();
  return useMutation({
    mutationFn: ({ depositId, shares }: { depositId: string; shares: string }) => api(poolsWithdraw, { params: { id: poolId }, body: { depositId, shares } }),
    onSettled: () => invalidate(userId),
  });
}

/** A server or math reason as a sentence: capitalised, with a full stop. */
const sentence = (s: string) => {
  const t = s.trim();
  return `${t.charAt(0).toUpperCase()}${t.slice(1)}${/[.!?]$/.test(t) ? '' : '.'}`;
};

/** The sentences a failed deposit or withdrawal shows: describeError(error, POOL_ERROR_MESSAGES). */
export const POOL_ERROR_MESSAGES: TErrorMessages = {
  INSUFFICIENT_BALANCE: "You don't have enough balance for this deposit.",
  INSUFFICIENT_SHARES: "This deposit doesn't hold that many shares. Reload the page to see what it holds now.",
  INVALID_TRADE_SIZE: (e) => (e.message && !/^validation/i.test(e.message) ? sentence(e.message) : `Check the amount: the minimum deposit is $${MIN_DEPOSIT.toFixed()}.`),
  POOL_INACTIVE: 'This pool is closed to deposits right now.',
  INSUFFICIENT_LIQUIDITY: "The pool can't pay this much in cash right now (the rest is in open positions). Try withdrawing fewer shares.",
  NOT_FOUND: 'We could not find this pool or deposit. Reload the page and try again.',
  FORBIDDEN: 'That deposit cannot be withdrawn by you.',
  RATE_LIMIT_EXCEEDED: 'You are moving money very fast. Wait a moment and try again.',
  VALIDATION_ERROR: 'Check the amount and try again.',
};

// ---------------------------------------------------------------------------------------------
// Previews (pure)

const NUMBER_PATTERN = /^\d*(\.\d*)?$/;

const parseNumber = (text: string): TDecimal | null => {
  const t = text.trim();
  if (t === '' || t === '.' || !NUMBER_PATTERN.test(t)) return null;
  return dec(t);
};

const stateOf = (pool: Pick<TPool, 'totalValue' | 'totalShares'>) => ({ nav: pool.totalValue, totalShares: pool.totalShares });

export type TDepositPreview =
  | { state: 'empty' }
  | { state: 'invalid'; reason: string }
  | { state: 'ready'; amount: string; shares: string; sharePrice: string };

/** What depositing `amountText` would buy at the pool's share price, with the server's rules. */
export function previewDeposit({
  pool,
  amountText,
  balance,
}: {
  pool: Pick<TPool, 'totalValue' | 'totalShares' | 'isActive'>;
  amountText: string;
  balance?: string;
}): TDepositPreview {
  const text = amountText.trim();
  if (text === '') return { state: 'empty' };
  const amount = parseNumber(text);
  if (!amount) return { state: 'invalid', reason: 'Enter a number, like 100 or 250.5.' };
  if (!pool.isActive) return { state: 'invalid', reason: 'This pool is closed to deposits right now.' };
  const problem = depositProblem(stateOf(pool), amount);
  if (problem) return { state: 'invalid', reason: sentence(problem) };
  if (balance !== undefined && amount.gt(balance)) return { state: 'invalid', reason: "You don't have enough balance for this deposit." };
  const q = quoteDeposit(stateOf(pool), amount);
  if (q.shares.lte(0)) return { state: 'invalid', reason: 'This deposit is too small to buy a share.' };
  return { state: 'ready', amount: q.amount.toFixed(), shares: q.shares.toFixed(), sharePrice: q.sharePrice.toFixed() };
}

export type TWithdrawPreview =
  | { state: 'empty' }
  | { state: 'invalid'; reason: string }
  | {
      state: 'ready';
      shares: string;
      sharePrice: string;
      /** Gross value of the shares at the share price. */
      value: string;
      /** Those shares' part of the lot's cost. */
      cost: string;
      profit: string;
      performanceFee: string;
      /** What reaches the balance: value − fee. */
      net: string;
      remainingShares: string;
    };

/** What withdrawing `sharesText` of `lot` would pay, fee included, with the server's rules. */
export function previewWithdraw({
  pool,
  lot,
  sharesText,
}: {
  pool: Pick<TPool, 'totalValue' | 'totalShares' | 'performanceFeeRate'>;
  lot: Pick<TPoolLot, 'remainingShares' | 'costBasis' | 'isSeed'> | undefined;
  sharesText: string;
}): TWithdrawPreview {
  const text = sharesText.trim();
  if (!lot) return { state: 'invalid', reason: 'Choose one of your deposits.' };
  if (text === '') return { state: 'empty' };
  const shares = parseNumber(text);
  if (!shares) return { state: 'invalid', reason: 'Enter a number of shares, like 10 or 12.5.' };
  const held = { shares: lot.remainingShares, costBasis: lot.costBasis };
  const problem = withdrawProblem(held, shares);
  if (problem) return { state: 'invalid', reason: sentence(problem) };
  const q = quoteWithdraw(stateOf(pool), held, shares, { feeRate: pool.performanceFeeRate, isManager: lot.isSeed });
  if (q.value.lte(0)) return { state: 'invalid', reason: 'These shares are worth nothing to withdraw.' };
  return {
    state: 'ready',
    shares: q.shares.toFixed(),
    sharePrice: q.sharePrice.toFixed(),
    value: q.value.toFixed(),
    cost: q.cost.toFixed(),
    profit: q.pnl.toFixed(),
    performanceFee: q.performanceFee.toFixed(),
    net: q.net.toFixed(),
    remainingShares: q.remainingShares.toFixed(),
  };
}

/** The quick picks of the withdraw form, as fractions of the lot. */
export const WITHDRAW_FRACTIONS = [0.25, 0.5, 1] as const;

/**
 * The shares text a quick pick puts in the box: the whole lot exactly as the API sent it (the
 * server reads a count within dust of the lot as all of it), a part of it rounded down to eight
 * places so it never asks for more than the lot holds.
 */
export function sharesForFraction(remainingShares: number, fraction: number) {
  return fraction >= 1 ? dec(remainingShares).toFixed() : dec(remainingShares).times(fraction).toDecimalPlaces(8, D.ROUND_DOWN).toFixed();
}
