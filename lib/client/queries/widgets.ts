/**
 * The feed's widgets in the browser: trending tags and posts, breaking news, platform stats and
 * upcoming events (lib/contracts/widgets). All change slowly, so each stays fresh for a minute;
 * live events refresh breaking news and upcoming events (lib/client/realtime/cache.ts), and a new
 * post refreshes them all. queryOptions factories own every query key. I/O: the typed client only.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/client/api';
import type { TEndpointResponse } from '@/lib/contracts/endpoint';
import { trendingTags, widgetsBreakingNews, widgetsStats, widgetsTrendingPosts, widgetsUpcomingEvents } from '@/lib/contracts/widgets';

export type TTrendingTag = TEndpointResponse<typeof trendingTags>['tags'][number];
export type TTrendingPost = TEndpointResponse<typeof widgetsTrendingPosts>['posts'][number];

/** The keys of widget queries; exported so that posting can refresh every widget (components never use keys). */
export const widgetKeys = {
  all: ['widgets'] as const,
  trendingTags: (limit: number) => [...widgetKeys.all, 'trending-tags', limit] as const,
  widget: (name: string, limit?: number) => [...widgetKeys.all, name, limit ?? 0] as const,
};

/** Widgets change slowly: a minute before they are refetched on use. */
const WIDGET_STALE_MS = 60_000;

export function getTrendingTagsQueryOptions(limit = 10) {
  return queryOptions({
    queryKey: widgetKeys.trendingTags(limit),
    queryFn: async () => (await api(trendingTags, { query: { limit } })).tags,
    staleTime: WIDGET_STALE_MS,
  });
}

export function useTrendingTags(limit = 10) {
  return useQuery(getTrendingTagsQueryOptions(limit));
}

export function getTrendingPostsQueryOptions(limit = 5) {
  return queryOptions({
    queryKey: widgetKeys.widget('trending-posts', limit),
    queryFn: async () => (await api(widgetsTrendingPosts, { query: { limit } })).posts,
    staleTime: WIDGET_STALE_MS,
  });
}

export function useTrendingPosts(limit = 5) {
  return useQuery(getTrendingPostsQueryOptions(limit));
}

export function getBreakingNewsQueryOptions() {
  return queryOptions({ queryKey: widgetKeys.widget('breaking-news'), queryFn: async () => (await api(widgetsBreakingNews)).news, staleTime: WIDGET_STALE_MS });
}

export function useBreakingNews() {
  return useQuery(getBreakingNewsQueryOptions());
}

export function getPlatformStatsQueryOptions() {
  return queryOptions({ queryKey: widgetKeys.widget('stats'), queryFn: async () => (await api(widgetsStats)).stats, staleTime: WIDGET_STALE_MS });
}

export function usePlatformStats() {
  return useQuery(getPlatformStatsQueryOptions());
}

export function getUpcomingEventsQueryOptions() {
  return queryOptions({ queryKey: widgetKeys.widget('upcoming-events'), queryFn: async () => (await api(widgetsUpcomingEvents)).events, staleTime: WIDGET_STALE_MS });
}

export function useUpcomingEvents() {
  return useQuery(getUpcomingEventsQueryOptions());
}
