/** The feed widgets: trending posts and tags, breaking news, upcoming events and stats (the markets widget included). */
import { z } from 'zod';
import { ZSuccess, ZTimestamp, zQueryInt } from './common';
import { ZAuthor } from './posts';
import { defineEndpoint } from './endpoint';
import { ZMarket } from './markets';

export const widgetsMarkets = defineEndpoint({
  id: 'widgets.markets',
  method: 'GET',
  path: '/api/feed/widgets/markets',
  summary: 'Top active prediction markets with their 24 h price change',
  tag: 'markets',
  auth: 'public',
  requires: ['read'],
  sameForEveryCaller: true,
  reads: 'replica',
  response: z.object({ success: ZSuccess, markets: z.array(ZMarket) }),
});

export const widgetsTrendingPosts = defineEndpoint({
  id: 'widgets.trendingPosts',
  method: 'GET',
  path: '/api/feed/widgets/trending-posts',
  summary: 'Posts ranked by engagement and recency (time decay), each with its score',
  tag: 'widgets',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  query: z.object({ limit: zQueryInt({ default: 5, min: 1, max: 50 }) }),
  response: z.object({
    success: ZSuccess,
    posts: z.array(
      z.object({
        id: z.string(),
        content: z.string(),
        score: z.number(),
        reactions: z.number().int(),
        comments: z.number().int(),
        shares: z.number().int(),
        authorId: z.string(),
        author: ZAuthor,
        createdAt: ZTimestamp,
      }),
    ),
  }),
});

export const widgetsBreakingNews = defineEndpoint({
  id: 'widgets.breakingNews',
  method: 'GET',
  path: '/api/feed/widgets/breaking-news',
  summary: 'Breaking news: the newest world events (the fields of the breaking_news event)',
  tag: 'widgets',
  auth: 'public',
  requires: ['read'],
  sameForEveryCaller: true,
  reads: 'replica',
  response: z.object({
    success: ZSuccess,
    news: z.array(z.object({ id: z.string(), title: z.string(), content: z.string(), relatedQuestions: z.array(z.number().int()), timestamp: ZTimestamp })),
  }),
});

export const widgetsStats = defineEndpoint({
  id: 'widgets.stats',
  method: 'GET',
  path: '/api/feed/widgets/stats',
  summary: 'Platform figures: users, posts today, active markets, 24 h volume',
  tag: 'widgets',
  auth: 'public',
  requires: ['read'],
  sameForEveryCaller: true,
  reads: 'replica',
  response: z.object({
    success: ZSuccess,
    stats: z.object({
      totalUsers: z.number().int(),
      totalPosts: z.number().int(),
      postsToday: z.number().int(),
      activeMarkets: z.number().int(),
      volume24h: z.number(),
      openPerpPositions: z.number().int(),
    }),
  }),
});

export const widgetsUpcomingEvents = defineEndpoint({
  id: 'widgets.upcomingEvents',
  method: 'GET',
  path: '/api/feed/widgets/upcoming-events',
  summary: 'Questions resolving soonest, and the next funding time',
  tag: 'widgets',
  auth: 'public',
  requires: ['read'],
  sameForEveryCaller: true,
  reads: 'replica',
  response: z.object({
    success: ZSuccess,
    events: z.array(z.object({ id: z.string(), type: z.enum(['resolution', 'funding']), title: z.string(), marketId: z.string().nullable(), date: ZTimestamp })),
  }),
});

export const trendingTags = defineEndpoint({
  id: 'trending.tags',
  method: 'GET',
  path: '/api/trending/tags',
  summary: 'Tags ranked by use, recent uses weighing more (a day-old use counts half)',
  tag: 'trending',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  query: z.object({ limit: zQueryInt({ default: 10, min: 1, max: 50 }) }),
  response: z.object({
    success: ZSuccess,
    tags: z.array(z.object({ tag: z.string(), name: z.string(), score: z.number(), count: z.number().int(), postsCount: z.number().int() })),
  }),
});

export const widgetsEndpoints = [
  widgetsMarkets,
  widgetsTrendingPosts,
  widgetsBreakingNews,
  widgetsStats,
  widgetsUpcomingEvents,
  trendingTags,
] as const;
