/**
 * Perpetual futures in the browser: tickers, one ticker's mark/index history, the signed-in
 * user's positions (open, and closed or liquidated), opening and closing, and the order preview.
 * queryOptions factories own every query key; hooks and invalidations go through them. The
 * preview runs the same pure math as the server (lib/perps/math), so what the order panel shows
 * is what opening does (at the default market depth the seed gives every ticker).
 * I/O: the typed client only.
 */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/client/api';
import type { TEndpointResponse } from '@/lib/contracts/endpoint';
import {
  perpsCandles,
  perpsClose,
  perpsHistory,
  perpsList,
  perpsOpen,
  perpsTickerTrades,
  perpsUserPositions,
  type TPerpCandle,
  type TPerpPosition,
  type TPerpTapeTrade,
  type TPerpTicker,
} from '@/lib/contracts/perps';
import { HIGH_LEVERAGE, MAX_LEVERAGE, MIN_LEVERAGE, orderProblem, quoteOpen, type TPerpSide } from '@/lib/perps/math';
import type { TErrorMessages } from './errors';
import { getMyPositionsQueryOptions, type THistoryRange } from './markets';
import { getBalanceQueryOptions, getMeQueryOptions } from './users';

export type { TPerpCandle, TPerpPosition, TPerpSide, TPerpTapeTrade, TPerpTicker, THistoryRange };
export { HIGH_LEVERAGE, MAX_LEVERAGE, MIN_LEVERAGE };
export type TPerpHistory = TEndpointResponse<typeof perpsHistory>;
export type TPerpPricePoint = TPerpHistory['history'][number];
export type TPerpPositionStatus = 'open' | 'closed';

const keys = {
  all: ['perps'] as const,
  tickers: () => [...keys.all, 'tickers'] as const,
  histories: (ticker: string) => [...keys.all, 'history', ticker.toUpperCase()] as const,
  history: (ticker: string, range: THistoryRange) => [...keys.histories(ticker), range] as const,
  candlesOf: (ticker: string) => [...keys.all, 'candles', ticker.toUpperCase()] as const,
  candles: (ticker: string, range: THistoryRange) => [...keys.candlesOf(ticker), range] as const,
  tape: (ticker: string) => [...keys.all, 'tape', ticker.toUpperCase()] as const,
  positionsAll: () => [...keys.all, 'positions'] as const,
  positions: (userId: string, status: TPerpPositionStatus, ticker?: string) => [...keys.positionsAll(), userId, status, ticker ?? 'all'] as const,
};

/** How often live numbers (mark prices, unrealized PnL) are refreshed while a page is open. */
export const LIVE_REFETCH_MS = 5_000;

// ---------------------------------------------------------------------------------------------
// Tickers

export function getPerpTickersQueryOptions() {
  return queryOptions({
    queryKey: keys.tickers(),
    queryFn: async () => (await api(perpsList)).tickers,
  });
}

export function usePerpTickers({ isLive = false }: { isLive?: boolean } = {}) {
  return useQuery({ ...getPerpTickersQueryOptions(), refetchInterval: isLive ? LIVE_REFETCH_MS : undefined });
}

/**
 * One ticker, read from the list (there is no single-ticker endpoint; the list is small) and kept
 * live. `data` is null when the list loaded without it (an unknown ticker).
 */
export function usePerpTicker(ticker: string) {
  const symbol = ticker.toUpperCase();
  return useQuery({
    ...getPerpTickersQueryOptions(),
    refetchInterval: LIVE_REFETCH_MS,
    select: (tickers) => {
      const t = tickers.find((x) => x.ticker === symbol);
      return t ? withLiveRange(t) : null;
    },
  });
}

/**
 * The 24 h high and low widened to the mark: a live price update moves the cached mark before the
 * next read of the list brings the server's range (which already brackets the mark).
 */
export function withLiveRange(t: TPerpTicker): TPerpTicker {
  return {
  ...t,
  high24h: Math.max(t.high24h, t.markPrice),
  low24h: Math.min(t.low24h, t.markPrice),
};
}

// ---------------------------------------------------------------------------------------------
// Price history

export function getPerpHistoryQueryOptions(ticker: string, range: THistoryRange) {
  return queryOptions({
    queryKey: keys.history(ticker, range),
    queryFn: () => api(perpsHistory, { params: { ticker }, query: { range } }),
    staleTime: 30_000,
  });
}

/** Switching range keeps the previous lines on screen until the new ones arrive. */
export function usePerpHistory(ticker: string, range: THistoryRange) {
  return useQuery({ ...getPerpHistoryQueryOptions(ticker, range), placeholderData: keepPreviousData });
}

const RANGE_SECONDS: Record<THistoryRange, number | null> = { '1h': 3600, '24h': 86_400, '7d': 604_800, '30d': 2_592_000, all: null };

export type TPerpChartPoint = { time: number; mark: number; index: number };

/**
 * The mark and index lines to draw, oldest first, in unix seconds. Points exist only where a
 * trade, tick or admin change happened, so the lines are extended to `now` at the ticker's
 * current prices, and a range without points is drawn flat. Plotting only: plain numbers.
 */
export function toPerpChartSeries(
  points: readonly TPerpPricePoint[],
  ticker: Pick<TPerpTicker, 'markPrice' | 'indexPrice'>,
  range: THistoryRange,
  nowSeconds: number,): TPerpChartPoint[] {
  const series = points.map((p) => ({ time: p.time, mark: p.markPrice, index: p.indexPrice })).sort((a, b) => a.time - b.time);
  const current = { time: nowSeconds, mark: ticker.markPrice, index: ticker.indexPrice };
  if (series.length === 0) {
    const span = RANGE_SECONDS[range] ?? 86_400;
    return [{ ...current, time: nowSeconds - span }, current];
  }
  if (series.at(-1)!.time < nowSeconds) series.push(current);
  return series;
}

/** The chart lines of a ticker for a range ("now" is when the history was fetched). */
export function usePerpChartSeries(ticker: Pick<TPerpTicker, 'ticker' | 'markPrice' | 'indexPrice'>, range: THistoryRange) {
  const query = usePerpHistory(ticker.ticker, range);
  const series = query.data ? toPerpChartSeries(query.data.history, ticker, range, Math.floor(query.dataUpdatedAt / 1000)) : null;
  return { ...query, series };
}

/** The 24-hour sparkline of a ticker row: mark prices, oldest first, ending at the current mark. */
export function usePerpSparkline(ticker: Pick<TPerpTicker, 'ticker' | 'markPrice' | 'indexPrice'>) {
  const query = useQuery(getPerpHistoryQueryOptions(ticker.ticker, '24h'));
  const values = query.data ? toPerpChartSeries(query.data.history, ticker, '24h', Math.floor(query.dataUpdatedAt / 1000)).map((p) => p.mark) : null;
  return { ...query, values };
}

// ---------------------------------------------------------------------------------------------
// Candles and the trades tape

/** Candles of a range, at the interval the server picks for it (a few dozen candles). */
export function getPerpCandlesQueryOptions(ticker: string, range: THistoryRange) {
  return queryOptions({
    queryKey: keys.candles(ticker, range),
    queryFn: () => api(perpsCandles, { params: { ticker }, query: { range } }),
    staleTime: 30_000,
  });
}

export function usePerpCandles(ticker: string, range: THistoryRange, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getPerpCandlesQueryOptions(ticker, range), placeholderData: keepPreviousData, enabled });
}

/** How many trades the tape shows. */
export const TAPE_LIMIT = 30;

/** The ticker's latest trades, newest first. */
export function getPerpTapeQueryOptions(ticker: string) {
  return queryOptions({
    queryKey: keys.tape(ticker),
    queryFn: async () => (await api(perpsTickerTrades, { params: { ticker }, query: { limit: TAPE_LIMIT } })).trades,
  });
}

export function usePerpTape(ticker: string) {
  return useQuery(getPerpTapeQueryOptions(ticker));
}

/** Refreshes what a live price or trade event changes on a ticker page beyond the ticker itself: its candles and tape. */
export function useRefreshPerpActivity() {
  const qc = useQueryClient();
  return (ticker: string) =>
    Promise.all([qc.invalidateQueries({ queryKey: keys.candlesOf(ticker) }), qc.invalidateQueries({ queryKey: keys.tape(ticker) })]);
}

// ---------------------------------------------------------------------------------------------
// Positions (the caller's)

/** The newest 100 of each kind: plenty for one player. */
const POSITIONS_LIMIT = 100;

/** `closed` covers closed and liquidated positions. userId is only part of the key. */
export function getMyPerpPositionsQueryOptions(userId: string, status: TPerpPositionStatus, ticker?: string) {
  return queryOptions({
    queryKey: keys.positions(userId, status, ticker),
    queryFn: async () => (await api(perpsUserPositions, { query: { status, limit: POSITIONS_LIMIT, ...(ticker ? { ticker } : {}) } })).positions,
  });
}

/** The user's positions, optionally of one ticker; open ones refresh every few seconds (live PnL). */
export function useMyPerpPositions(userId: string | undefined, status: TPerpPositionStatus, { ticker }: { ticker?: string } = {}) {
  const symbol = ticker?.toUpperCase();
  return useQuery({
    ...getMyPerpPositionsQueryOptions(userId ?? '', status, symbol),
    enabled: !!userId,
    refetchInterval: status === 'open' ? LIVE_REFETCH_MS : undefined,
  });
}

// ---------------------------------------------------------------------------------------------
// Trading

/** Everything an open or close changes: tickers (mark, open interest), histories, candles, the tape, positions, balance. */
const useInvalidateAfterPerpTrade = () => {
  const qc = useQueryClient();
  return (ticker: string, userId: string | undefined) =>
    Promise.all([
      qc.invalidateQueries({ queryKey: keys.tickers() }),
      qc.invalidateQueries({ queryKey: keys.histories(ticker) }),
      qc.invalidateQueries({ queryKey: keys.candlesOf(ticker) }),
      qc.invalidateQueries({ queryKey: keys.tape(ticker) }),
      qc.invalidateQueries({ queryKey: keys.positionsAll() }),
      qc.invalidateQueries({ queryKey: getMeQueryOptions().queryKey }),
      ...(userId
        ? [
            qc.invalidateQueries({ queryKey: getMyPositionsQueryOptions(userId).queryKey }),
            qc.invalidateQueries({ queryKey: getBalanceQueryOptions(userId).queryKey }),
          ]
        : []),
    ]);
};

export type TOpenPerpInput = { side: TPerpSide; size: string; leverage: number };

export function useOpenPerp(ticker: string, userId: string | undefined) {
  const invalidate = useInvalidateAfterPerpTrade();
  return useMutation({
    mutationFn: ({ side, size, leverage }: TOpenPerpInput) => api(perpsOpen, { body: { ticker, side, size, leverage } }),
    onSettled: () => invalidate(ticker, userId),
  });
}

export function useClosePerp(ticker: string, userId: string | undefined) {
  const invalidate = useInvalidateAfterPerpTrade();
  return useMutation({
    mutationFn: (positionId: string) => api(perpsClose, { params: { positionId } }),
    onSettled: () => invalidate(ticker, userId),
  });
}

/**
 * The sentences a failed open or close shows: describeError(error, PERP_ERROR_MESSAGES). A
 * validation error carries the server's own reason (the size or leverage rule it broke) unless
 * that reason is a generic one.
 */
export const PERP_ERROR_MESSAGES: TErrorMessages = {
  INSUFFICIENT_BALANCE: "You don't have enough balance for the margin and fee of this order.",
  POSITION_CLOSED: 'This position is already closed (or was liquidated). Its result is listed under closed positions.',
  NOT_FOUND: 'We could not find this ticker or position. Reload the page and try again.',
  FORBIDDEN: 'That position belongs to someone else.',
  RATE_LIMIT_EXCEEDED: 'You are trading very fast. Wait a moment and try again.',
  VALIDATION_ERROR: (e) => (/^validation/i.test(e.message) || e.message === '' ? 'Check the size and leverage and try again.' : e.message),
};

// ---------------------------------------------------------------------------------------------
// Order preview (pure)

export type TOrderPreview =
  | { state: 'empty' }
  | { state: 'invalid'; reason: string }
  | {
      state: 'ready';
      size: string;
      leverage: number;
      margin: string;
      fee: string;
      /** Debited on open: margin plus fee. */
      cost: string;
      entryPrice: string;
      liquidationPrice: string;
      /** The mark move this order causes, as a fraction (0.0001 = 0.01%). */
      impact: number;
      isHighLeverage: boolean;
    };

const SIZE_PATTERN = /^\d*(\.\d*)?$/;

const sentence = (s: string) => `${s.charAt(0).toUpperCase()}${s.slice(1)}.`;

/**
 * What opening `sizeText` (notional in currency) at `leverage` would cost and where it would
 * fill, computed with the server's math at the ticker's mark.
 */
export function previewOrder({
  markPrice,
  depth,
  side,
  sizeText,
  leverage,
  balance,
}: {
  markPrice: number;
  /** The market's depth (impact = size / depth). */
  depth: number;
  side: TPerpSide;
  sizeText: string;
  leverage: number;
  balance?: string;
}): TOrderPreview {
  const text = sizeText.trim();
  if (text === '') return { state: 'empty' };
  if (!SIZE_PATTERN.test(text) || text === '.') return { state: 'invalid', reason: 'Enter a number, like 100 or 250.5.' };
  const problem = orderProblem({ size: text, leverage });
  if (problem) return { state: 'invalid', reason: sentence(problem) };
  const q = quoteOpen({ side, size: text, leverage, markPrice, depth });
  if (balance !== undefined && q.cost.gt(balance)) {
    return { state: 'invalid', reason: `You don't have enough balance: this order needs $${q.cost.toFixed(2)} for margin and fee.` };
  }
  return {
    state: 'ready',
    size: q.size.toFixed(),
    leverage,
    margin: q.margin.toFixed(),
    fee: q.fee.toFixed(),
    cost: q.cost.toFixed(),
    entryPrice: q.entryPrice.toFixed(),
    liquidationPrice: q.liquidationPrice.toFixed(),
    impact: q.impact.toNumber(),
    isHighLeverage: leverage > HIGH_LEVERAGE,
  };
}

/** Whether a leverage is above the warning threshold. */
export function isHighLeverage(leverage: number) {
  return leverage > HIGH_LEVERAGE;
}
