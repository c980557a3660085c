import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getMarketQueryOptions, getMarketTradesQueryOptions, getMarketsQueryOptions, getMyPositionsQueryOptions, getPriceHistoryQueryOptions, type TMarket } from '@/lib/client/queries/markets';
import { getPerpHistoryQueryOptions, getPerpTickersQueryOptions, type TPerpTicker } from '@/lib/client/queries/perps';
import { getPoolQueryOptions, getPoolsQueryOptions, type TPool, type TPoolDetail } from '@/lib/client/queries/pools';
import { getFeedQueryOptions } from '@/lib/client/queries/posts';
import { getMeQueryOptions } from '@/lib/client/queries/users';
import { getBreakingNewsQueryOptions, getUpcomingEventsQueryOptions } from '@/lib/client/queries/widgets';
import { BREAKING_NEWS_KEEP, DERIVED_REFRESH_MS, bindQueryCache, fetchUnseenLatestPosts, loadedLatestPostIds } from './cache';
import { createRealtimeHub } from './hub';

const market = (id: string, yesPrice = 0.5): TMarket =>
  ({ id, questionNumber: 1, yesPrice, noPrice: 1 - yesPrice, yesShares: 100, noShares: 100, status: 'active', change24h: 0 }) as TMarket;

const ticker = (symbol: string, mark: number): TPerpTicker => ({ ticker: symbol, markPrice: mark, currentPrice: mark, price: mark, indexPrice: mark }) as TPerpTicker;

const pool = (id: string, totalValue: number, totalShares: number): TPool =>
  ({ id, totalValue, totalShares, sharePrice: totalValue / totalShares, priceChange24h: 0, userStake: null }) as TPool;

const news = (id: string) => ({ id, title: `T${id}`, content: 'C', relatedQuestions: [], timestamp: '2026-01-01T00:00:00.000Z' });

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();

const setup = (userId?: string) => {
  vi.useFakeTimers();
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  const hub = createRealtimeHub();
  const unbind = bindQueryCache(hub, qc, { getUserId: () => userId });
  return { qc, hub, unbind };
};

const isStale = (qc: QueryClient, key: readonly unknown[]) => qc.getQueryState(key)?.isInvalidated ?? false;

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('bindQueryCache', () => {
  it('market_update patches the detail and the list rows at once, in arrival (commit) order whatever the timestamps', () => {
    const { qc, hub, unbind } = setup();
    qc.setQueryData(getMarketQueryOptions('m1').queryKey, market('m1'));
    qc.setQueryData(getMarketsQueryOptions('active').queryKey, [market('m1'), market('m2', 0.3)]);

    hub.emit({ type: 'market_update', data: { marketId: 'm1', yesPrice: 0.62, noPrice: 0.38, yesShares: 80, noShares: 130, timestamp: at(10) } });
    expect(qc.getQueryData(getMarketQueryOptions('m1').queryKey)).toMatchObject({ yesPrice: 0.62, noPrice: 0.38, yesShares: 80, noShares: 130 });
    const list = qc.getQueryData(getMarketsQueryOptions('active').queryKey)!;
    expect(list.map((m) => m.yesPrice)).toEqual([0.62, 0.3]);

    // A player's trade stamped with the wall clock after a tick stamped with a later game time.
    hub.emit({ type: 'market_update', data: { marketId: 'm1', yesPrice: 0.4, noPrice: 0.6, yesShares: 1, noShares: 1, timestamp: at(5) } });
    expect(qc.getQueryData(getMarketQueryOptions('m1').queryKey)?.yesPrice).toBe(0.4);
    unbind();
  });

  it('refreshes derived figures (list, histories) once per burst, not per event', () => {
    const { qc, hub, unbind } = setup();
    qc.setQueryData(getMarketsQueryOptions('active').queryKey, [market('m1')]);
    qc.setQueryData(getPriceHistoryQueryOptions('m1', '7d').queryKey, []);
    qc.setQueryData(getMarketTradesQueryOptions('m1').queryKey, []);
    const invalidate = vi.spyOn(qc, 'invalidateQueries');
    for (let i = 0; i < 5; i++) {
      hub.emit({ type: 'market_update', data: { marketId: 'm1', yesPrice: 0.5 + i / 100, noPrice: 0.5, yesShares: 1, noShares: 1, timestamp: at(i) } });
    }
    expect(isStale(qc, getPriceHistoryQueryOptions('m1', '7d').queryKey)).toBe(false);
    vi.advanceTimersByTime(DERIVED_REFRESH_MS);
    expect(isStale(qc, getPriceHistoryQueryOptions('m1', '7d').queryKey)).toBe(true);
    expect(isStale(qc, getMarketsQueryOptions('active').queryKey)).toBe(true);
    expect(isStale(qc, getMarketTradesQueryOptions('m1').queryKey)).toBe(true);
    const listCalls = invalidate.mock.calls.filter(([f]) => JSON.stringify(f?.queryKey) === JSON.stringify(getMarketsQueryOptions('active').queryKey));
    expect(listCalls).toHaveLength(1);
    unbind();
  });

  it('perp_update moves the mark (and its aliases) of that ticker only', () => {
    const { qc, hub, unbind } = setup();
    qc.setQueryData(getPerpTickersQueryOptions().queryKey, [ticker('AAA', 10), ticker('BBB', 20)]);
    qc.setQueryData(getPerpHistoryQueryOptions('AAA', '24h').queryKey, { success: true, ticker: 'AAA', history: [] } as never);
    hub.emit({ type: 'perp_update', data: { ticker: 'AAA', markPrice: 12.5, timestamp: at(1) } });
    const [a, b] = qc.getQueryData(getPerpTickersQueryOptions().queryKey)!;
    expect([a!.markPrice, a!.currentPrice, a!.price]).toEqual([12.5, 12.5, 12.5]);
    expect(a!.indexPrice).toBe(10);
    expect(b!.markPrice).toBe(20);
    hub.emit({ type: 'perp_update', data: { ticker: 'BBB', markPrice: 21, indexPrice: 20.5, timestamp: at(2) } });
    expect(qc.getQueryData(getPerpTickersQueryOptions().queryKey)![1]).toMatchObject({ markPrice: 21, indexPrice: 20.5 });
    vi.advanceTimersByTime(DERIVED_REFRESH_MS);
    expect(isStale(qc, getPerpHistoryQueryOptions('AAA', '24h').queryKey)).toBe(true);
    unbind();
  });

  it('pool_update patches the NAV, share price and share count of that pool in the list and every cached page, then refetches once per burst', () => {
    const { qc, hub, unbind } = setup();
    qc.setQueryData(getPoolsQueryOptions().queryKey, [pool('p1', 1000, 1000), pool('p2', 500, 250)]);
    qc.setQueryData(getPoolQueryOptions('p1', '7d').queryKey, { success: true, pool: pool('p1', 1000, 1000), history: [], activity: [] } as unknown as TPoolDetail);
    qc.setQueryData(getPoolQueryOptions('p1', '24h').queryKey, { success: true, pool: pool('p1', 1000, 1000), history: [], activity: [] } as unknown as TPoolDetail);
    const invalidate = vi.spyOn(qc, 'invalidateQueries');

    hub.emit({ type: 'pool_update', data: { poolId: 'p1', totalValue: 1100, sharePrice: 1.0476, totalShares: 1050, timestamp: at(1) } });
    hub.emit({ type: 'pool_update', data: { poolId: 'p1', totalValue: 1210, sharePrice: 1.1524, totalShares: 1050, timestamp: at(2) } });
    const [a, b] = qc.getQueryData(getPoolsQueryOptions().queryKey)!;
    expect(a).toMatchObject({ totalValue: 1210, sharePrice: 1.1524, totalShares: 1050 });
    expect(b).toMatchObject({ totalValue: 500, sharePrice: 2, totalShares: 250 });
    for (const range of ['7d', '24h'] as const) {
      expect(qc.getQueryData(getPoolQueryOptions('p1', range).queryKey)!.pool).toMatchObject({ totalValue: 1210, sharePrice: 1.1524, totalShares: 1050 });
    }
    // A page never loaded stays unloaded: a lone patch must not pass for the whole page.
    expect(qc.getQueryData(getPoolQueryOptions('p1', '30d').queryKey)).toBeUndefined();

    expect(isStale(qc, getPoolsQueryOptions().queryKey)).toBe(false);
    vi.advanceTimersByTime(DERIVED_REFRESH_MS);
    expect(isStale(qc, getPoolsQueryOptions().queryKey)).toBe(true);
    expect(isStale(qc, getPoolQueryOptions('p1', '7d').queryKey)).toBe(true);
    const listCalls = invalidate.mock.calls.filter(([f]) => JSON.stringify(f?.queryKey) === JSON.stringify(getPoolsQueryOptions().queryKey));
    expect(listCalls).toHaveLength(1);
    unbind();
  });

  it('breaking_news goes to the front of loaded news, once, keeping the newest few; not into an unloaded list', () => {
    const { qc, hub, unbind } = setup();
    hub.emit({ type: 'breaking_news', data: news('x') });
    expect(qc.getQueryData(getBreakingNewsQueryOptions().queryKey)).toBeUndefined();

    qc.setQueryData(getBreakingNewsQueryOptions().queryKey, Array.from({ length: BREAKING_NEWS_KEEP }, (_, i) => news(`old${i}`)));
    hub.emit({ type: 'breaking_news', data: news('n1') });
    hub.emit({ type: 'breaking_news', data: news('n1') });
    const list = qc.getQueryData(getBreakingNewsQueryOptions().queryKey)!;
    expect(list).toHaveLength(BREAKING_NEWS_KEEP);
    expect(list[0]!.id).toBe('n1');
    expect(list.filter((n) => n.id === 'n1')).toHaveLength(1);
    unbind();
  });

  it('new questions refresh the active markets and the upcoming events, once per burst', () => {
    const { qc, hub, unbind } = setup();
    qc.setQueryData(getMarketsQueryOptions('active').queryKey, []);
    qc.setQueryData(getUpcomingEventsQueryOptions().queryKey, []);
    const invalidate = vi.spyOn(qc, 'invalidateQueries');
    for (let i = 0; i < 3; i++) {
      hub.emit({ type: 'question_created', data: { id: `q${i}`, questionNumber: i, text: 'Will it?', resolutionDate: at(0), timestamp: at(0) } });
    }
    expect(isStale(qc, getMarketsQueryOptions('active').queryKey)).toBe(false);
    vi.advanceTimersByTime(DERIVED_REFRESH_MS);
    expect(invalidate).toHaveBeenCalledTimes(2);
    expect(isStale(qc, getMarketsQueryOptions('active').queryKey)).toBe(true);
    expect(isStale(qc, getUpcomingEventsQueryOptions().queryKey)).toBe(true);
    unbind();
  });

  it("a liquidation refreshes the reader's positions only when it is theirs", () => {
    const { qc, hub, unbind } = setup('me');
    qc.setQueryData(getMyPositionsQueryOptions('me').queryKey, { predictions: [], perps: [] } as never);
    hub.emit({ type: 'perp_liquidation', data: { positionId: 'p', userId: 'someone', ticker: 'AAA' } });
    expect(isStale(qc, getMyPositionsQueryOptions('me').queryKey)).toBe(false);
    hub.emit({ type: 'perp_liquidation', data: { positionId: 'p', userId: 'me', ticker: 'AAA' } });
    expect(isStale(qc, getMyPositionsQueryOptions('me').queryKey)).toBe(true);
    unbind();
  });

  it('a reconnect invalidates the live queries but leaves the feed where the reader is', () => {
    const { qc, hub, unbind } = setup();
    qc.setQueryData(getMarketQueryOptions('m1').queryKey, market('m1'));
    qc.setQueryData(getPerpTickersQueryOptions().queryKey, []);
    qc.setQueryData(getPoolsQueryOptions().queryKey, []);
    qc.setQueryData(getBreakingNewsQueryOptions().queryKey, []);
    qc.setQueryData(getMeQueryOptions().queryKey, { id: 'me' } as never);
    qc.setQueryData(getFeedQueryOptions('latest').queryKey, { pages: [{ success: true, posts: [{ id: 'p1' }], nextCursor: null }], pageParams: [undefined] } as never);
    hub.emitReconnect();
    for (const key of [getMarketQueryOptions('m1').queryKey, getPerpTickersQueryOptions().queryKey, getPoolsQueryOptions().queryKey, getBreakingNewsQueryOptions().queryKey, getMeQueryOptions().queryKey]) {
      expect(isStale(qc, key)).toBe(true);
    }
    expect(isStale(qc, getFeedQueryOptions('latest').queryKey)).toBe(false);
    expect([...loadedLatestPostIds(qc)]).toEqual(['p1']);
    unbind();
  });

  it('unbinding stops every handler', () => {
    const { qc, hub, unbind } = setup();
    qc.setQueryData(getMarketQueryOptions('m1').queryKey, market('m1'));
    unbind();
    hub.emit({ type: 'market_update', data: { marketId: 'm1', yesPrice: 0.9, noPrice: 0.1, yesShares: 1, noShares: 1, timestamp: at(1) } });
    expect(qc.getQueryData(getMarketQueryOptions('m1').queryKey)?.yesPrice).toBe(0.5);
  });
});

describe('fetchUnseenLatestPosts', () => {
  const feedPost = (id: string, authorId: string, repost: unknown = null) => ({ id, authorId, repost });

  it("answers the head's posts by others that the loaded feed lacks, without touching the cache", async () => {
    const qc = new QueryClient();
    const key = getFeedQueryOptions('latest').queryKey;
    const loaded = { pages: [{ success: true, posts: [feedPost('p1', 'u1')], nextCursor: null }], pageParams: [undefined] };
    qc.setQueryData(key, loaded as never);
    const fetch = vi.fn(async (url: string) => {
      expect(url).toBe('/api/posts?limit=20');
      const posts = [feedPost('p4', 'me'), feedPost('p3', 'u2'), feedPost('p2', 'u3', { id: 's1' }), feedPost('p1', 'u1')];
      return new Response(JSON.stringify({ success: true, posts, nextCursor: null }), { status: 200 });
    });
    vi.stubGlobal('fetch', fetch);
    expect(await fetchUnseenLatestPosts(qc, 'me')).toEqual([{ id: 'p3', authorId: 'u2' }]);
    expect(qc.getQueryData(key)).toBe(loaded);
  });

  it('asks nothing when the feed was never loaded', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    expect(await fetchUnseenLatestPosts(new QueryClient(), 'me')).toEqual([]);
    expect(fetch).not.toHaveBeenCalled();
  });
});
