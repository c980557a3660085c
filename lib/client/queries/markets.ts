/**
 * Prediction markets in the browser: lists, one market, price history, the signed-in user's
 * positions, a market's recent trades, buying and selling, and the trade preview. queryOptions
 * factories own every query key; hooks and invalidations go through them. The preview runs the
 * same pure CPMM as the server (lib/markets/cpmm), so what the form shows is what the trade does.
 * I/O: the typed client only.
 */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/client/api';
import type { TEndpointResponse } from '@/lib/contracts/endpoint';
import {
  marketsPositions,
  predictionsBuy,
  predictionsGet,
  predictionsHistory,
  predictionsHolders,
  predictionsList,
  predictionsNews,
  predictionsPosts,
  predictionsSell,
  tradesList,
  type TMarket,
  type TMarketDetail,
} from '@/lib/contracts/markets';
import { MIN_BUY, quoteBuy, quoteSell, toPool, type TOutcome } from '@/lib/markets/cpmm';
import { dec, type TDecimal } from '@/lib/money/decimal';
import type { TErrorMessages } from './errors';
import { getBalanceQueryOptions, getMeQueryOptions } from './users';

export type { TMarket, TOutcome };
/** A market as the detail query holds it: the list fields, plus what the page explains once fetched (live price updates keep them). */
export type TMarketWithAbout = TMarket & Partial<Pick<TMarketDetail, 'description' | 'resolutionCriteria' | 'resolutionSource' | 'organization'>>;
export type THolders = TEndpointResponse<typeof predictionsHolders>;
export type THolder = THolders['holders'][number];
export type TNewsItem = TEndpointResponse<typeof predictionsNews>['news'][number];
export type TMarketPostSummary = TEndpointResponse<typeof predictionsPosts>['posts'][number];
export type TMarketStatus = 'active' | 'resolved';
export type THistoryRange = '1h' | '24h' | '7d' | '30d' | 'all';
export type TPricePoint = TEndpointResponse<typeof predictionsHistory>['points'][number];
export type TPositions = TEndpointResponse<typeof marketsPositions>;
export type TPosition = TPositions['predictions'][number];
export type TOpenPerp = TPositions['perps'][number];
/** Equity and P&L by the one definition (lib/equity), for the owner. */
export type TAccountNumbers = NonNullable<TPositions['account']>;
export type TTrade = TEndpointResponse<typeof tradesList>['trades'][number];

const keys = {
  all: ['markets'] as const,
  lists: () => [...keys.all, 'list'] as const,
  list: (status: TMarketStatus) => [...keys.lists(), status] as const,
  filteredList: (status: TMarketStatus, f: Omit<TMarketFilters, 'status'>) => [...keys.list(status), f] as const,
  facets: () => [...keys.all, 'facets'] as const,
  page: (id: string) => [...keys.all, 'page', id] as const,
  details: () => [...keys.all, 'detail'] as const,
  detail: (id: string) => [...keys.details(), id] as const,
  histories: (id: string) => [...keys.all, 'history', id] as const,
  history: (id: string, range: THistoryRange) => [...keys.histories(id), range] as const,
  positions: (userId: string) => [...keys.all, 'positions', userId] as const,
  trades: (marketId: string) => [...keys.all, 'trades', marketId] as const,
};

// ---------------------------------------------------------------------------------------------
// Markets

/** The list page shows one page of up to 100 markets; the world has a handful. */
const LIST_LIMIT = 100;

export function getMarketsQueryOptions(status: TMarketStatus) {
  return queryOptions({
    queryKey: keys.list(status),
    queryFn: async () => (await api(predictionsList, { query: { status, limit: LIST_LIMIT } })).markets,
  });
}

export function useMarkets(status: TMarketStatus) {
  return useQuery(getMarketsQueryOptions(status));
}

export type TMarketSort = 'newest' | 'volume' | 'closing' | 'movers';
export type TMarketFilters = { status: TMarketStatus; q?: string; sort?: TMarketSort; topic?: string; ticker?: string };

export const MARKET_SORTS: readonly { value: TMarketSort; label: string }[] = [
  { value: 'newest', label: 'Newest' },
  { value: 'volume', label: 'Volume' },
  { value: 'closing', label: 'Closing' },
  { value: 'movers', label: 'Movers' },
];

/** The filters the markets page keeps in its address (unknown or empty values dropped). */
export function parseMarketFilters(params: { get: (name: string) => string | null }): TMarketFilters {
  const status = params.get('status') === 'resolved' ? 'resolved' : 'active';
  const sort = MARKET_SORTS.find((s) => s.value === params.get('sort'))?.value;
  const text = (name: string) => params.get(name)?.trim().slice(0, 100) || undefined;
  return { status, q: text('q'), sort: sort === 'newest' ? undefined : sort, topic: text('topic'), ticker: text('ticker')?.toUpperCase() };
}

/** The address query of a set of filters (defaults left out, so the plain page stays /markets). */
export function marketFiltersSearch(f: TMarketFilters) {
  const p = new URLSearchParams();
  if (f.status !== 'active') p.set('status', f.status);
  if (f.q) p.set('q', f.q);
  if (f.sort && f.sort !== 'newest') p.set('sort', f.sort);
  if (f.topic) p.set('topic', f.topic);
  if (f.ticker) p.set('ticker', f.ticker);
  const s = p.toString();
  return s ? `?${s}` : '';
}

/**
 * One filtered, sorted page of markets. Without filters it is the plain list's query (same key), so
 * live price updates and invalidations reach it; filtered lists sit under that key.
 */
export function getFilteredMarketsQueryOptions({ status, ...rest }: TMarketFilters) {
  const f = { q: rest.q || undefined, sort: rest.sort && rest.sort !== 'newest' ? rest.sort : undefined, topic: rest.topic || undefined, ticker: rest.ticker || undefined };
  const isPlain = !f.q && !f.sort && !f.topic && !f.ticker;
  const queryKey: readonly unknown[] = isPlain ? getMarketsQueryOptions(status).queryKey : keys.filteredList(status, f);
  return queryOptions({
    queryKey,
    queryFn: async () => (await api(predictionsList, { query: { status, limit: LIST_LIMIT, ...f } })).markets,
  });
}

export function useFilteredMarkets(filters: TMarketFilters) {
  return useQuery({ ...getFilteredMarketsQueryOptions(filters), placeholderData: keepPreviousData });
}

/** The topics and tickers questions are about (the list's filter choices). */
export function getMarketFacetsQueryOptions() {
  return queryOptions({
    queryKey: keys.facets(),
    queryFn: async () => (await api(predictionsList, { query: { status: 'all', limit: 1 } })).facets,
    staleTime: 5 * 60_000,
  });
}

export function useMarketFacets() {
  return useQuery(getMarketFacetsQueryOptions());
}

export function getMarketQueryOptions(id: string) {
  return queryOptions({
    queryKey: keys.detail(id),
    queryFn: async (): Promise<TMarketWithAbout> => (await api(predictionsGet, { params: { id } })).market,
  });
}

export function useMarket(id: string) {
  return useQuery(getMarketQueryOptions(id));
}

// ---------------------------------------------------------------------------------------------
// Price history

export function getPriceHistoryQueryOptions(id: string, range: THistoryRange) {
  return queryOptions({
    queryKey: keys.history(id, range),
    queryFn: async () => (await api(predictionsHistory, { params: { id }, query: { range } })).points,
    staleTime: 30_000,
  });
}

/** Switching range keeps the previous line on screen until the new one arrives. */
export function usePriceHistory(id: string, range: THistoryRange) {
  return useQuery({ ...getPriceHistoryQueryOptions(id, range), placeholderData: keepPreviousData });
}

const RANGE_SECONDS: Record<THistoryRange, number | null> = { '1h': 3600, '24h': 86_400, '7d': 604_800, '30d': 2_592_000, all: null };

export type TChartPoint = { time: number; yesPrice: number };

/**
 * The YES line to draw, oldest first, in unix seconds. The history only has points where a trade
 * or tick happened, so the line is extended to `now` at the market's current price, and a range
 * with no points at all is drawn flat at that price. Plotting only: plain numbers are fine.
 */
export function toChartSeries(
  points: readonly TPricePoint[],
  market: Pick<TMarket, 'yesPrice' | 'createdDate'>,
  range: THistoryRange,
  nowSeconds: number,): TChartPoint[] {
  const series = points.map((p) => ({ time: p.time, yesPrice: p.yesPrice })).sort((a, b) => a.time - b.time);
  const created = Math.floor(Date.parse(market.createdDate) / 1000);
  const span = RANGE_SECONDS[range];
  const start = span === null ? created : Math.max(created, nowSeconds - span);
  if (series.length === 0) return [{ time: Math.min(start, nowSeconds - 60), yesPrice: market.yesPrice }, { time: nowSeconds, yesPrice: market.yesPrice }];
  const last = series.at(-1)!;
  if (last.time < nowSeconds) series.push({ time: nowSeconds, yesPrice: market.yesPrice });
  return series;
}

/** The 7-day sparkline of a card: YES prices, oldest first, ending at the current price. */
export function useMarketSparkline(market: Pick<TMarket, 'id' | 'yesPrice' | 'createdDate'>) {
  const query = useQuery(getPriceHistoryQueryOptions(market.id, '7d'));
  const values = query.data ? toChartSeries(query.data, market, '7d', Math.floor(query.dataUpdatedAt / 1000)).map((p) => p.yesPrice) : null;
  return { ...query, values };
}

/** The market page's chart line for a range ("now" is when the history was fetched). */
export function usePriceChartSeries(market: Pick<TMarket, 'id' | 'yesPrice' | 'createdDate'>, range: THistoryRange) {
  const query = usePriceHistory(market.id, range);
  const series = query.data ? toChartSeries(query.data, market, range, Math.floor(query.dataUpdatedAt / 1000)) : null;
  return { ...query, series };
}

// ---------------------------------------------------------------------------------------------
// Positions

/** Below this many shares a position is dust worth nothing; the UI treats it as closed. */
export const DUST_SHARES = 1e-6;

export function isOpenPosition(p: Pick<TPosition, 'shares' | 'status'>) {
  return p.status === 'open' && p.shares >= DUST_SHARES;
}

export function getMyPositionsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: keys.positions(userId),
    queryFn: () => api(marketsPositions, { params: { userId } }),
  });
}

/**
 * Open prediction positions with their totals (dust left out, so the totals are recomputed for
 * display), and open perpetual positions (valued at the mark by the server).
 */
const selectOpenPositions = (data: TPositions) => {
  const positions = data.predictions.filter(isOpenPosition);
  const perps = data.perps.filter((p) => p.status === 'open');
  return {
    positions,
    perps,
    account: data.account ?? null,
    totalPerpUnrealizedPnL: sumExact(perps.map((p) => p.unrealizedPnL)),
    totalValue: sumExact(positions.map((p) => p.value)),
    totalUnrealizedPnL: sumExact(positions.map((p) => p.unrealizedPnL)),
    totalCostBasis: sumExact(positions.map((p) => p.costBasis)),
  };
};

const sumExact = (values: number[]) => values.reduce((acc, v) => acc.plus(v), dec(0)).toFixed();

export function useMyPositions(userId: string | undefined) {
  return useQuery({ ...getMyPositionsQueryOptions(userId ?? ''), enabled: !!userId, select: selectOpenPositions });
}

/** The user's open positions in one market (at most one per side). */
export function useMarketPositions(userId: string | undefined, marketId: string) {
  const query = useMyPositions(userId);
  const positions = query.data?.positions.filter((p) => p.marketId === marketId) ?? [];
  return { ...query, positions };
}

// ---------------------------------------------------------------------------------------------
// Trades

export function getMarketTradesQueryOptions(marketId: string, limit = 20) {
  return queryOptions({
    queryKey: [...keys.trades(marketId), limit] as const,
    queryFn: async () => (await api(tradesList, { query: { marketId, limit, type: 'prediction' } })).trades,
  });
}

/** Recent trades of a market; the endpoint wants a signed-in caller, so pass isEnabled accordingly. */
export function useMarketTrades(marketId: string, { isEnabled = true }: { isEnabled?: boolean } = {}) {
  return useQuery({ ...getMarketTradesQueryOptions(marketId), enabled: isEnabled });
}

/** The signed-in player's own trades in one market, newest first. */
export function getMyMarketTradesQueryOptions(marketId: string, userId: string) {
  return queryOptions({
    queryKey: [...keys.trades(marketId), 'mine', userId] as const,
    queryFn: async () => (await api(tradesList, { query: { marketId, userId, limit: 50, type: 'prediction' } })).trades,
  });
}

export function useMyMarketTrades(marketId: string, userId: string | undefined) {
  return useQuery({ ...getMyMarketTradesQueryOptions(marketId, userId ?? ''), enabled: !!userId });
}

// ---------------------------------------------------------------------------------------------
// The market page: holders, news, posts

export function getMarketHoldersQueryOptions(marketId: string) {
  return queryOptions({
    queryKey: [...keys.page(marketId), 'holders'] as const,
    queryFn: () => api(predictionsHolders, { params: { id: marketId }, query: { limit: 10 } }),
  });
}

export function useMarketHolders(marketId: string) {
  return useQuery(getMarketHoldersQueryOptions(marketId));
}

export function getMarketNewsQueryOptions(marketId: string) {
  return queryOptions({
    queryKey: [...keys.page(marketId), 'news'] as const,
    queryFn: async () => (await api(predictionsNews, { params: { id: marketId }, query: { limit: 10 } })).news,
    staleTime: 60_000,
  });
}

export function useMarketNews(marketId: string) {
  return useQuery(getMarketNewsQueryOptions(marketId));
}

export function getMarketPostsQueryOptions(marketId: string) {
  return queryOptions({
    queryKey: [...keys.page(marketId), 'posts'] as const,
    queryFn: async () => (await api(predictionsPosts, { params: { id: marketId }, query: { limit: 10 } })).posts,
  });
}

export function useMarketPosts(marketId: string) {
  return useQuery(getMarketPostsQueryOptions(marketId));
}

// ---------------------------------------------------------------------------------------------
// Trading

/** Everything a trade changes: the market, both lists, its history, the trader's positions, balance and trades. */
const useInvalidateAfterTrade = () => {
  const qc = useQueryClient();
  return (marketId: string, userId: string | undefined) =>
    Promise.all([
      qc.invalidateQueries({ queryKey: getMarketQueryOptions(marketId).queryKey }),
      qc.invalidateQueries({ queryKey: keys.lists() }),
      qc.invalidateQueries({ queryKey: keys.histories(marketId) }),
      qc.invalidateQueries({ queryKey: keys.trades(marketId) }),
      qc.invalidateQueries({ queryKey: getMarketHoldersQueryOptions(marketId).queryKey }),
      qc.invalidateQueries({ queryKey: getMeQueryOptions().queryKey }),
      ...(userId
        ? [
            qc.invalidateQueries({ queryKey: getMyPositionsQueryOptions(userId).queryKey }),
            qc.invalidateQueries({ queryKey: getBalanceQueryOptions(userId).queryKey }),
          ]
        : []),
    ]);
};

export function useBuyShares(marketId: string, userId: string | undefined) {
  const invalidate = useInvalidateAfterTrade();
  return useMutation({
    mutationFn: ({ outcome, amount }: { outcome: TOutcome; amount: string }) =>
      api(predictionsBuy, { params: { id: marketId }, body: { outcome, amount } }),
    onSuccess: () => invalidate(marketId, userId),
  });
}

/**
 * Sells by position. Share counts reach the browser as JSON numbers, a hair off the exact
 * 18-decimal holding; the server treats a count within 1e-9 of the holding as the whole position,
 * so "sell all" just sends the number it was given.
 */
export function useSellShares(marketId: string, userId: string | undefined) {
  const invalidate = useInvalidateAfterTrade();
  return useMutation({
    mutationFn: ({ positionId, shares }: { positionId: string; shares: string; isAll: boolean }) =>
      api(predictionsSell, { params: { id: marketId }, body: { positionId, shares } }),
    onSettled: () => invalidate(marketId, userId),
  });
}

/** The sentences a failed buy or sell shows: describeError(error, TRADE_ERROR_MESSAGES). */
export const TRADE_ERROR_MESSAGES: TErrorMessages = {
  INSUFFICIENT_BALANCE: "You don't have enough balance for this trade.",
  MARKET_CLOSED: 'This market is closed.',
  INSUFFICIENT_SHARES: "You don't have that many shares to sell.",
  INVALID_TRADE_SIZE: 'That trade is too small. The minimum buy is 1.',
  NOT_FOUND: 'We could not find this market or position. Reload the page and try again.',
  VALIDATION_ERROR: 'Check the amount and try again.',
};

// ---------------------------------------------------------------------------------------------
// Trade preview (pure)

export type TTradeMode = 'buy' | 'sell';

export type TTradePreview =
  | { state: 'empty' }
  | { state: 'invalid'; reason: string }
  | {
      state: 'buy';
      amount: string;
      shares: string;
      avgPrice: string;
      fee: string;
      maxPayout: string;
      /** What the shares pay beyond the amount spent if the outcome wins. */
      maxProfit: string;
      priceBefore: number;
      priceAfter: number;
    }
  | {
      state: 'sell';
      shares: string;
      avgPrice: string;
      fee: string;
      proceeds: string;
      priceBefore: number;
      priceAfter: number;
    };

const AMOUNT_PATTERN = /^\d*(\.\d*)?$/;

const parseAmount = (text: string): TDecimal | null => {
  const t = text.trim();
  if (t === '' || t === '.' || !AMOUNT_PATTERN.test(t)) return null;
  return dec(t);
};

/**
 * What a buy of `amountText` or a sale of `sharesText` would do, computed with the server's CPMM.
 * The fee total does not depend on whether the trader has a referrer (only its split does).
 */
export function previewTrade({
  market,
  mode,
  outcome,
  text,
  balance,
  heldShares,
}: {
  market: Pick<TMarket, 'yesShares' | 'noShares'>;
  mode: TTradeMode;
  outcome: TOutcome;
  text: string;
  balance?: string;
  heldShares?: number;
}): TTradePreview {
  if (text.trim() === '') return { state: 'empty' };
  if (!AMOUNT_PATTERN.test(text.trim())) return { state: 'invalid', reason: 'Enter a number, like 25 or 12.5.' };
  const value = parseAmount(text);
  if (!value || value.lte(0)) return { state: 'invalid', reason: mode === 'buy' ? 'The minimum buy is 1.' : 'Enter more than 0 shares.' };
  const pool = toPool(market);
  if (mode === 'buy') {
    if (value.lt(MIN_BUY)) return { state: 'invalid', reason: `The minimum buy is ${MIN_BUY.toFixed()}.` };
    if (balance !== undefined && value.gt(balance)) return { state: 'invalid', reason: "You don't have enough balance for this trade." };
    const q = quoteBuy(pool, outcome, value);
    return {
      state: 'buy',
      amount: value.toFixed(),
      shares: q.shares.toFixed(),
      avgPrice: q.avgPrice.toFixed(),
      fee: q.fees.total.toFixed(),
      maxPayout: q.maxPayout.toFixed(),
      maxProfit: q.maxPayout.minus(value).toFixed(),
      priceBefore: q.priceBefore.toNumber(),
      priceAfter: q.priceAfter.toNumber(),
    };
  }
  if (heldShares === undefined || heldShares < DUST_SHARES) return { state: 'invalid', reason: `You hold no ${outcome} shares in this market.` };
  if (value.gt(heldShares)) return { state: 'invalid', reason: "You don't have that many shares to sell." };
  const q = quoteSell(pool, outcome, value);
  if (q.proceeds.lte(0)) return { state: 'invalid', reason: 'That sale is too small to pay anything out.' };
  return {
    state: 'sell',
    shares: value.toFixed(),
    avgPrice: q.avgPrice.toFixed(),
    fee: q.fees.total.toFixed(),
    proceeds: q.proceeds.toFixed(),
    priceBefore: q.priceBefore.toNumber(),
    priceAfter: q.priceAfter.toNumber(),
  };
}

/** The text "Max" puts in the shares box: the holding exactly as the API sent it. */
export function maxSharesText(shares: number) {
  return dec(shares).toFixed();
}
