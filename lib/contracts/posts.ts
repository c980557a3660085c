/** Posts and feeds: the post itself, the feeds (latest, following, favorites, by author, by tag), likes and shares of posts, interactions. */
import { z } from 'zod';
import type { TPost, TPostMarket, TPostRemoved, TPostTrade } from '@/lib/posts/dto';
import { FEED_FILTERS } from '@/lib/posts/feed-filter';
import { POST_MAX_CHARS, QUOTE_MAX_CHARS } from '@/lib/posts/text';
import { ZIdParam, ZPagination, ZSuccess, ZTimestamp, zQueryBool, zQueryInt, zQueryIntOptional, zText, ZUserIdParams, type TSame } from './common';
import { defineEndpoint } from './endpoint';
import { ZImageUrl, ZUserSummary } from './users';

export const ZAuthor = ZUserSummary;

const ZRepost = z.object({
  id: z.string(),
  userId: z.string(),
  user: z.object({ id: z.string(), username: z.string(), displayName: z.string(), profileImageUrl: z.string().nullable() }),
  quote: z.string().nullable(),
  quoteComment: z.string().nullable(),
  createdAt: ZTimestamp,
});

/** The market a post is about (its relatedQuestion), priced as GET /api/markets/predictions/{id} prices it. */
const ZPostMarket = z.object({
  id: z.string(),
  question: z.string(),
  yesPrice: z.number(),
  noPrice: z.number(),
  /** YES price now less 24 hours ago (probability points, -1..1). */
  change24h: z.number(),
  status: z.enum(['active', 'resolved']),
  resolvedOutcome: z.enum(['YES', 'NO']).nullable(),
});

/** The author's open position in the post's market (the larger side when they hold both). */
const ZAuthorPosition = z.object({ side: z.enum(['YES', 'NO']), shares: z.number(), avgPrice: z.number() });

/** The trade a post reports: a prediction market trade or a perp trade, made by the post's author. */
const ZPostTrade = z.object({
  kind: z.enum(['prediction', 'perp']),
  id: z.string(),
  /** YES/NO for a prediction trade, long/short for a perp. */
  side: z.enum(['YES', 'NO', 'long', 'short']),
  /** buy/sell for a prediction trade, open/close/liquidation for a perp. */
  action: z.enum(['buy', 'sell', 'open', 'close', 'liquidation']),
  ticker: z.string().nullable(),
  marketId: z.string().nullable(),
  /** What was paid or received (prediction), the notional (perp). */
  amount: z.number(),
  /** Average price per share (prediction), the fill price (perp). */
  price: z.number(),
  /** Shares bought or sold (prediction only). */
  shares: z.number().nullable(),
  /** The position's leverage (perp only). */
  leverage: z.number().nullable(),
  createdAt: ZTimestamp,
});

export const ZPost = z.object({
  id: z.string(),
  type: z.enum(['post', 'article']),
  content: z.string(),
  authorId: z.string(),
  /** An NPC author's public calibration (Brier over at least 3 resolved calls); null otherwise. */
  author: ZAuthor.extend({ calibration: z.object({ brier: z.number(), resolved: z.number().int() }).nullable() }),
  timestamp: ZTimestamp,
  createdAt: ZTimestamp,
  imageUrl: z.string().nullable(),
  relatedQuestion: z.string().nullable(),
  tags: z.array(z.string()),
  reactions: z.object({ like: z.number().int(), total: z.number().int() }),
  likesCount: z.number().int(),
  reactionCount: z.number().int(),
  commentsCount: z.number().int(),
  sharesCount: z.number().int(),
  userReacted: z.boolean(),
  userLiked: z.boolean(),
  userShared: z.boolean(),
  /** Set on a feed item that is a repost: who shared it, when, with what quote. */
  repost: ZRepost.nullable(),
  /** The relatedQuestion's market, live when read; null when the post names none. */
  market: ZPostMarket.nullable(),
  /** The author's open position in that market; null without a market or a holding. */
  authorPosition: ZAuthorPosition.nullable(),
  /** The trade the post reports; null for other posts. */
  trade: ZPostTrade.nullable(),
  /** Perp tickers written as $TICKER in the content (links to /perps/{ticker}), uppercase, in order of first appearance. */
  tickers: z.array(z.string()),
  /**
   * Set when a moderator removed the post: it keeps its place in every feed, but for anyone but a
   * moderator its content is '' and its image, tags, tickers, market and trade are left out.
   */
  removed: z.object({ reason: z.string().nullable(), at: ZTimestamp }).nullable(),
});

// lib/posts/dto.ts owns the post's shape (market and trade included); the schema documents exactly that (common.ts TSame).
export type { TPost, TPostMarket, TPostRemoved, TPostTrade };
const _post: TSame<z.infer<typeof ZPost>, TPost> = true;

export const ZPostIdParams = z.object({ id: ZIdParam });

const ZPostContent = zText({ min: 1, max: POST_MAX_CHARS });

const ZQuote = zText({ max: QUOTE_MAX_CHARS }).nullish();

const ZFeedResponse = z.object({
  success: ZSuccess,
  posts: z.array(ZPost),
  pagination: ZPagination.optional(),
  nextCursor: z.string().nullable(),
});

export const postsList = defineEndpoint({
  id: 'posts.list',
  method: 'GET',
  path: '/api/posts',
  summary:
    'Posts newest first: all, by author (userId, actorId), of followed users with their reposts (filter=following or following=true); players only (filter=players or hideNpcs=true), about what the caller holds or has orders in (filter=mine or held=true); page/offset or cursor',
  tag: 'posts',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  rateLimit: 'postsList',
  query: z.object({
    page: zQueryInt({ default: 1, min: 1 }),
    limit: zQueryInt({ default: 20, min: 1, max: 100 }),
    offset: zQueryIntOptional({ min: 0, max: 100_000 }),
    cursor: z.string().min(1).max(500).optional(),
    userId: ZIdParam.optional().describe('only posts by this author (an id or a username); one that names no user matches no post (200, empty)'),
    actorId: ZIdParam.optional().describe('the same filter as userId (its older name)'),
    type: z.enum(['post', 'article']).optional(),
    following: zQueryBool.optional(),
    filter: z
      .enum(FEED_FILTERS)
      .optional()
      .describe(
        'everyone (the default: every post), players (no NPC actors\' posts), mine (posts about a market or ticker the caller holds or has an open order in; signed in only), following (the followed users\' posts and reposts; signed in only, as following=true); 401 for mine and following without a caller',
      ),
    hideNpcs: zQueryBool.optional().describe('leave out posts by NPC actors (and, in the following feed, reposts by NPCs)'),
    held: zQueryBool
      .optional()
      .describe(
        'only posts about a market the caller holds shares in or a ticker the caller has an open perp on (its relatedQuestion, its reported trade, or a $TICKER in its text); signed in only (401 otherwise, as following)',
      ),
  }),
  response: ZFeedResponse,
  errors: ['INVALID_PARAMETER', 'UNAUTHORIZED'],
});

export const postsCreate = defineEndpoint({
  id: 'posts.create',
  method: 'POST',
  path: '/api/posts',
  summary: 'Create a post (1–280 characters as a reader counts them); #tags and @mentions are parsed',
  tag: 'posts',
  auth: 'user',
  requires: ['social'],
  body: z.strictObject({
    content: ZPostContent,
    type: z.enum(['post', 'article']).default('post'),
    relatedQuestion: ZIdParam.nullish(),
    imageUrl: ZImageUrl.nullish(),
  }),
  status: 201,
  response: z.object({ success: ZSuccess, post: ZPost }),
  errors: ['VALIDATION_ERROR'],
});

export const postsGet = defineEndpoint({
  id: 'posts.get',
  method: 'GET',
  path: '/api/posts/{id}',
  summary: 'One post',
  tag: 'posts',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  params: ZPostIdParams,
  response: z.object({ success: ZSuccess, post: ZPost }),
  errors: ['NOT_FOUND'],
});

export const postsFavoritesFeed = defineEndpoint({
  id: 'posts.favoritesFeed',
  method: 'GET',
  path: '/api/posts/feed/favorites',
  summary: 'Posts of the profiles the caller favorited, newest first',
  tag: 'posts',
  auth: 'user',
  requires: ['read'],
  reads: 'replica',
  rateLimit: 'postsList',
  query: z.object({ limit: zQueryInt({ default: 20, min: 1, max: 100 }), cursor: z.string().min(1).max(500).optional() }),
  response: ZFeedResponse,
});

export const ZLikeResponse = z.object({ success: ZSuccess, liked: z.boolean(), reactionCount: z.number().int(), likesCount: z.number().int() });

export const postsLike = defineEndpoint({
  id: 'posts.like',
  method: 'POST',
  path: '/api/posts/{id}/like',
  summary: 'Like a post (a second like changes nothing)',
  tag: 'reactions',
  auth: 'user',
  requires: ['social'],
  rateLimit: 'like',
  params: ZPostIdParams,
  response: ZLikeResponse,
  // USER_BLOCKED: a block stands between the caller and the post's author (either way).
  errors: ['NOT_FOUND', 'USER_BLOCKED'],
});

export const postsUnlike = defineEndpoint({ ...postsLike, id: 'posts.unlike', method: 'DELETE', summary: 'Unlike a post', errors: ['NOT_FOUND'] });

const ZShare = z.object({ id: z.string(), userId: z.string(), postId: z.string(), quote: z.string().nullable(), quoteComment: z.string().nullable(), createdAt: ZTimestamp });

export const postsShare = defineEndpoint({
  id: 'posts.share',
  method: 'POST',
  path: '/api/posts/{id}/share',
  summary: "Share (repost) a post to one's followers, with an optional quote",
  tag: 'reactions',
  auth: 'user',
  requires: ['social'],
  rateLimit: 'share',
  params: ZPostIdParams,
  body: z.strictObject({ quoteComment: ZQuote, quote: ZQuote }),
  status: 201,
  response: z.object({ success: ZSuccess, share: ZShare, shared: z.boolean(), sharesCount: z.number().int() }),
  errors: ['NOT_FOUND', 'USER_BLOCKED'],
});

export const postsUnshare = defineEndpoint({
  id: 'posts.unshare',
  method: 'DELETE',
  path: '/api/posts/{id}/share',
  summary: 'Remove a share',
  tag: 'reactions',
  auth: 'user',
  requires: ['social'],
  rateLimit: 'share',
  params: ZPostIdParams,
  response: z.object({ success: ZSuccess, shared: z.boolean(), sharesCount: z.number().int() }),
  errors: ['NOT_FOUND'],
});

export const postsInteractions = defineEndpoint({
  id: 'posts.interactions',
  method: 'GET',
  path: '/api/posts/{id}/interactions',
  summary: "A post's likes and shares, in the full and the compact form",
  tag: 'reactions',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  params: ZPostIdParams,
  response: z.object({
    success: ZSuccess,
    reactions: z.array(z.object({ userId: z.string(), type: z.literal('like'), username: z.string(), createdAt: ZTimestamp })),
    shares: z.array(z.object({ userId: z.string(), username: z.string(), createdAt: ZTimestamp })),
    totalReactions: z.number().int(),
    totalShares: z.number().int(),
    likes: z.number().int(),
    comments: z.number().int(),
    sharesCount: z.number().int(),
    userLiked: z.boolean(),
    userShared: z.boolean(),
  }),
  errors: ['NOT_FOUND'],
});

export const trendingTag = defineEndpoint({
  id: 'trending.tag',
  method: 'GET',
  path: '/api/trending/{tag}',
  summary: 'Posts with a tag, newest first',
  tag: 'trending',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  params: z.object({ tag: z.string().min(1).max(51).transform((t) => t.replace(/^#/, '').toLowerCase()) }),
  query: z.object({ limit: zQueryInt({ default: 20, min: 1, max: 100 }), offset: zQueryInt({ default: 0, max: 100_000 }) }),
  response: z.object({ success: ZSuccess, tag: z.string(), posts: z.array(ZPost), count: z.number().int(), total: z.number().int() }),
});

export const usersPosts = defineEndpoint({
  id: 'users.posts',
  method: 'GET',
  path: '/api/users/{userId}/posts',
  summary: "A user's posts, newest first, with pagination",
  tag: 'posts',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  rateLimit: 'postsList',
  params: ZUserIdParams,
  query: z.object({ page: zQueryInt({ default: 1, min: 1 }), limit: zQueryInt({ default: 20, min: 1, max: 100 }), type: z.enum(['post', 'article']).optional() }),
  response: z.object({ success: ZSuccess, posts: z.array(ZPost), pagination: ZPagination }),
  errors: ['USER_NOT_FOUND'],
});

export const postsEndpoints = [
  postsList,
  postsCreate,
  postsGet,
  postsFavoritesFeed,
  postsLike,
  postsUnlike,
  postsShare,
  postsUnshare,
  postsInteractions,
  trendingTag,
  usersPosts,
] as const;
