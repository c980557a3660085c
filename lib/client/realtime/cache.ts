/**
 * What live events do to the React Query cache. Prices are patched in place at once (a market's
 * detail and list rows, a ticker's mark, a pool's NAV and share price), so numbers and the last
 * point of every chart move without a request; the derived figures (24 h change, history points,
 * stakes) are refetched at most once per few seconds per market, ticker or pool. New questions
 * and breaking news refresh their lists; a liquidation of the reader's own position refreshes
 * their positions and balance. After a reconnect every live query is invalidated once, in case
 * the outage outlasted the server's replay window. The feed is left alone: new posts are
 * announced, never pushed under the reader (see the "N new posts" banner). Every key comes from
 * the queryOptions factories.
 * I/O: the typed client (one feed request after a reconnect) and the given QueryClient.
 */
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { api } from '@/lib/client/api';
import {
  getMarketQueryOptions,
  getMarketTradesQueryOptions,
  getMarketsQueryOptions,
  getMyPositionsQueryOptions,
  getPriceHistoryQueryOptions,
  type TMarket,
  type THistoryRange,
} from '@/lib/client/queries/markets';
import { getOrderBookQueryOptions, orderKeys } from '@/lib/client/queries/orders';
import { getPerpHistoryQueryOptions, getPerpTickersQueryOptions, type TPerpTicker } from '@/lib/client/queries/perps';
import { getPoolQueryOptions, getPoolsQueryOptions, type TPool, type TPoolDetail, type TPoolRange } from '@/lib/client/queries/pools';
import { FEED_PAGE_SIZE, getFeedQueryOptions, type TFeedPage } from '@/lib/client/queries/posts';
import { getBalanceQueryOptions, getMeQueryOptions } from '@/lib/client/queries/users';
import { getBreakingNewsQueryOptions, getUpcomingEventsQueryOptions } from '@/lib/client/queries/widgets';
import { postsList } from '@/lib/contracts/posts';
import type { TRealtimeEventData } from './events';
import type { TRealtimeHub } from './hub';

/** Every history range, so a market's or ticker's histories are named by their exact keys. */
const HISTORY_RANGES = Object.keys({ '1h': 0, '24h': 0, '7d': 0, '30d': 0, all: 0 } satisfies Record<THistoryRange, 0>) as THistoryRange[];

/** How long derived figures may lag a burst of price events before one refetch. */
export const DERIVED_REFRESH_MS = 3_000;

/** The newest breaking-news items the ticker keeps. */
export const BREAKING_NEWS_KEEP = 10;

/** A domain's root key (the first element of any of its factory keys): everything under it. */
const rootOf = (key: readonly unknown[]) => key.slice(0, 1);

type TPriceFields = Pick<TMarket, 'yesPrice' | 'noPrice' | 'yesShares' | 'noShares'>;

const withPrices = (m: TMarket, d: TPriceFields): TMarket => ({ ...m, yesPrice: d.yesPrice, noPrice: d.noPrice, yesShares: d.yesShares, noShares: d.noShares });

/** Puts a market_update's prices and pool into the market's detail and list rows, where cached. */
export function applyMarketUpdate(qc: QueryClient, d: TRealtimeEventData<'market_update'>) {
  qc.setQueryData(getMarketQueryOptions(d.marketId).queryKey, (m) => (m ? withPrices(m, d) : m));
  for (const status of ['active', 'resolved'] as const) {
    qc.setQueryData(getMarketsQueryOptions(status).queryKey, (list) =>
      list?.some((m) => m.id === d.marketId) ? list.map((m) => (m.id === d.marketId ? withPrices(m, d) : m)) : list,
    );
  }
}

const withPerpPrices = (t: TPerpTicker, d: TRealtimeEventData<'perp_update'>): TPerpTicker => ({
  ...t,
  ...(d.markPrice === undefined ? {} : { markPrice: d.markPrice, currentPrice: d.markPrice, price: d.markPrice }),
  ...(d.indexPrice === undefined ? {} : { indexPrice: d.indexPrice }),
});

/** Puts a perp_update's mark (and its alias fields) and index, when sent, into the cached ticker list. */
export function applyPerpUpdate(qc: QueryClient, d: TRealtimeEventData<'perp_update'>) {
  if (d.markPrice === undefined && d.indexPrice === undefined) return;
  const symbol = d.ticker.toUpperCase();
  qc.setQueryData(getPerpTickersQueryOptions().queryKey, (list) =>
    list?.some((t) => t.ticker === symbol) ? list.map((t) => (t.ticker === symbol ? withPerpPrices(t, d) : t)) : list,
  );
}

/** Every NAV range, so a pool's pages are named by their exact keys. */
const POOL_RANGES = Object.keys({ '24h': 0, '7d': 0, '30d': 0, all: 0 } satisfies Record<TPoolRange, 0>) as TPoolRange[];

const withNav = <P extends Pick<TPool, 'totalValue' | 'sharePrice' | 'totalShares'>>(p: P, d: TRealtimeEventData<'pool_update'>): P => ({
  ...p,
  totalValue: d.totalValue,
  sharePrice: d.sharePrice,
  totalShares: d.totalShares,
});

/**
 * Puts a pool_update's NAV, share price and share count into the cached list row and every cached
 * page of that pool (the previews price from these, so they follow at once). Derived figures (24 h
 * change, stakes, lot values, the chart) wait for the throttled refetch.
 */
export function applyPoolUpdate(qc: QueryClient, d: TRealtimeEventData<'pool_update'>) {
  qc.setQueryData(getPoolsQueryOptions().queryKey, (list) =>
    list?.some((p) => p.id === d.poolId) ? list.map((p) => (p.id === d.poolId ? withNav(p, d) : p)) : list,
  );
  for (const range of POOL_RANGES) {
    qc.setQueryData(getPoolQueryOptions(d.poolId, range).queryKey, (page: TPoolDetail | undefined) => (page ? { ...page, pool: withNav(page.pool, d) } : page));
  }
}

/** Adds a breaking_news item to the top of the loaded news (newest first, no duplicates). */
export function addBreakingNews(qc: QueryClient, d: TRealtimeEventData<'breaking_news'>) {
  // Not loaded yet: the first fetch brings it, and a one-item list must not pass for the whole.
  qc.setQueryData(getBreakingNewsQueryOptions().queryKey, (news) =>
    news ? [d, ...news.filter((n) => n.id !== d.id)].slice(0, BREAKING_NEWS_KEEP) : news,
  );
}

/** Ids of the posts in the loaded pages of the Latest feed. */
export function loadedLatestPostIds(qc: QueryClient) {
  const data = qc.getQueryData<InfiniteData<TFeedPage>>(getFeedQueryOptions('latest').queryKey);
  return new Set(data?.pages.flatMap((p) => p.posts.map((post) => post.id)) ?? []);
}

/**
 * Posts at the head of the Latest feed that the loaded feed lacks and someone else wrote: what a
 * reconnect may have missed when the outage outlasted the replay. Reads the server without
 * touching the cache, so nothing moves on screen. Empty when the feed was never loaded.
 */
export async function fetchUnseenLatestPosts(qc: QueryClient, myUserId: string | undefined) {
  const loaded = loadedLatestPostIds(qc);
  if (loaded.size === 0) return [];
  const head = await api(postsList, { query: { limit: FEED_PAGE_SIZE } });
  return head.posts.filter((p) => !p.repost && !loaded.has(p.id) && p.authorId !== myUserId).map((p) => ({ id: p.id, authorId: p.authorId }));
}

/** Invalidates every live query (markets, perps, pools, news and events widgets, the reader): after a reconnect. */
export function invalidateLiveQueries(qc: QueryClient) {
  return Promise.all([
    qc.invalidateQueries({ queryKey: rootOf(getMarketsQueryOptions('active').queryKey) }),
    qc.invalidateQueries({ queryKey: rootOf(getPerpTickersQueryOptions().queryKey) }),
    qc.invalidateQueries({ queryKey: rootOf(getPoolsQueryOptions().queryKey) }),
    qc.invalidateQueries({ queryKey: getBreakingNewsQueryOptions().queryKey }),
    qc.invalidateQueries({ queryKey: getUpcomingEventsQueryOptions().queryKey }),
    qc.invalidateQueries({ queryKey: getMeQueryOptions().queryKey }),
    qc.invalidateQueries({ queryKey: orderKeys.all }),
  ]);
}

type TTimers = { setTimer: (fn: () => void, ms: number) => unknown; clearTimer: (handle: unknown) => void };

const defaultTimers: TTimers = {
  setTimer: (fn, ms) => setTimeout(fn, ms),
  clearTimer: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/** Runs each key's latest task once, `ms` after the first request of a burst. */
const createTrailingThrottle = (ms: number, { setTimer, clearTimer }: TTimers) => {
  const pending = new Map<string, { handle: unknown; task: () => void }>();
  return {
    schedule: (key: string, task: () => void) => {
      const current = pending.get(key);
      if (current) {
        current.task = task;
        return;
      }
      const entry = { task, handle: null as unknown };
      entry.handle = setTimer(() => {
        pending.delete(key);
        entry.task();
      }, ms);
      pending.set(key, entry);
    },
    cancelAll: () => {
      for (const { handle } of pending.values()) clearTimer(handle);
      pending.clear();
    },
  };
};

/**
 * Wires the hub's events to the cache. `getUserId` names the reader (for their own liquidations);
 * answers the unbind function.
 */
export function bindQueryCache(
  hub: TRealtimeHub,
  qc: QueryClient,
  { getUserId, timers = defaultTimers }: { getUserId: () => string | undefined; timers?: TTimers },) {
  const throttle = createTrailingThrottle(DERIVED_REFRESH_MS, timers);
  // A price move may be a fill of a resting order or the trigger of a stop: the reader's orders
  // are read again once per burst, whichever markets or tickers moved.
  const refreshMyOrders = () => throttle.schedule('orders:mine', () => void qc.invalidateQueries({ queryKey: orderKeys.mineAll() }));
  // Events are applied in arrival order, which is commit order: the server delivers each stream
  // ordered by outbox position, replay first. Timestamps are no guide (the tick stamps game time).

  // One list refetch per burst however many markets or tickers moved (a tick moves many at once);
  // only queries on screen refetch, the rest are just marked stale.
  const refreshMarketDerived = (marketId: string) => {
    throttle.schedule('markets:list', () => void qc.invalidateQueries({ queryKey: getMarketsQueryOptions('active').queryKey }));
    throttle.schedule(`market:${marketId}`, () => {
      // The detail's volume and 24 h change, its recent trades and its chart points.
      void qc.invalidateQueries({ queryKey: getMarketQueryOptions(marketId).queryKey });
      void qc.invalidateQueries({ queryKey: getMarketTradesQueryOptions(marketId).queryKey });
      for (const range of HISTORY_RANGES) void qc.invalidateQueries({ queryKey: getPriceHistoryQueryOptions(marketId, range).queryKey });
      // Its order book: a trade that moved the price may have filled resting orders.
      void qc.invalidateQueries({ queryKey: getOrderBookQueryOptions(marketId).queryKey });
    });
    refreshMyOrders();
  };

  const refreshPerpDerived = (ticker: string) => {
    throttle.schedule('perps:tickers', () => void qc.invalidateQueries({ queryKey: getPerpTickersQueryOptions().queryKey }));
    throttle.schedule(`perp:${ticker}`, () => {
      for (const range of HISTORY_RANGES) void qc.invalidateQueries({ queryKey: getPerpHistoryQueryOptions(ticker, range).queryKey });
    });
    refreshMyOrders();
  };

  const refreshPoolDerived = (poolId: string) => {
    throttle.schedule('pools:list', () => void qc.invalidateQueries({ queryKey: getPoolsQueryOptions().queryKey }));
    throttle.schedule(`pool:${poolId}`, () => {
      for (const range of POOL_RANGES) void qc.invalidateQueries({ queryKey: getPoolQueryOptions(poolId, range).queryKey });
    });
  };

  const unbind = [
    hub.on('market_update', (d) => {
      applyMarketUpdate(qc, d);
      refreshMarketDerived(d.marketId);
    }),
    hub.on('perp_update', (d) => {
      applyPerpUpdate(qc, d);
      refreshPerpDerived(d.ticker);
    }),
    hub.on('perp_liquidation', (d) => {
      refreshPerpDerived(d.ticker);
      // One's own position is gone and its margin with it.
      const userId = getUserId();
      if (userId && d.userId === userId) {
        void qc.invalidateQueries({ queryKey: rootOf(getPerpTickersQueryOptions().queryKey) });
        void qc.invalidateQueries({ queryKey: getMyPositionsQueryOptions(userId).queryKey });
        void qc.invalidateQueries({ queryKey: getBalanceQueryOptions(userId).queryKey });
        void qc.invalidateQueries({ queryKey: getMeQueryOptions().queryKey });
      }
    }),
    hub.on('pool_update', (d) => {
      applyPoolUpdate(qc, d);
      refreshPoolDerived(d.poolId);
    }),
    // Orders: a book changed without a price move (an order rested or was cancelled), or one of
    // the reader's own orders filled, fired, expired or was cancelled (their user channel).
    hub.on('order_book', (d) => throttle.schedule(`book:${d.marketId}`, () => void qc.invalidateQueries({ queryKey: getOrderBookQueryOptions(d.marketId).queryKey }))),
    hub.on('order_update', (d) => {
      refreshMyOrders();
      if (d.order.marketId) throttle.schedule(`book:${d.order.marketId}`, () => void qc.invalidateQueries({ queryKey: getOrderBookQueryOptions(d.order.marketId!).queryKey }));
      // A fill or a trigger moved money and positions; a cancel or expiry refunded a reserve.
      const userId = getUserId();
      throttle.schedule('orders:account', () => {
        void qc.invalidateQueries({ queryKey: getMeQueryOptions().queryKey });
        if (userId) {
          void qc.invalidateQueries({ queryKey: getMyPositionsQueryOptions(userId).queryKey });
          void qc.invalidateQueries({ queryKey: getBalanceQueryOptions(userId).queryKey });
        }
      });
    }),
    hub.on('breaking_news', (d) => addBreakingNews(qc, d)),
    // A tick may open many questions at once: one refetch of each list for the burst.
    hub.on('question_created', () => {
      throttle.schedule('markets:list', () => void qc.invalidateQueries({ queryKey: getMarketsQueryOptions('active').queryKey }));
      throttle.schedule('upcoming-events', () => void qc.invalidateQueries({ queryKey: getUpcomingEventsQueryOptions().queryKey }));
    }),
    hub.onReconnect(() => void invalidateLiveQueries(qc)),
  ];
  return () => {
    for (const off of unbind) off();
    throttle.cancelAll();
  };
}
