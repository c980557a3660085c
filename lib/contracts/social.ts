/**
 * The social side: posts and feeds, comments and replies, likes and shares, follows and
 * favorites, notifications, trending tags and the feed widgets.
 */
import { z } from 'zod';
import { COMMENT_MAX_CHARS, COMMENT_MIN_CHARS, POST_MAX_CHARS, QUOTE_MAX_CHARS } from '@/lib/social/text';
import { ZIdParam, ZPagination, ZSuccess, ZTimestamp, zQueryBool, zQueryInt, zQueryIntOptional, zText } from './common';
import { defineEndpoint } from './endpoint';
import { ZUserSummary } from './users';


export const ZAuthor = ZUserSummary;

const ZRepost = z.object({
  id: z.string(),
  userId: z.string(),
  user: z.object({ id: z.string(), username: z.string(), displayName: z.string(), profileImageUrl: z.string().nullable() }),
  quote: z.string().nullable(),
  quoteComment: z.string().nullable(),
  createdAt: ZTimestamp,
});

export const ZPost = z.object({
  id: z.string(),
  type: z.enum(['post', 'article']),
  content: z.string(),
  authorId: z.string(),
  author: ZAuthor,
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
});
export type TPost = z.infer<typeof ZPost>;

export const ZComment = z.object({
  id: z.string(),
  content: z.string(),
  authorId: z.string(),
  author: ZAuthor,
  postId: z.string(),
  parentCommentId: z.string().nullable(),
  createdAt: ZTimestamp,
  updatedAt: ZTimestamp,
  editedAt: ZTimestamp.nullable(),
  deleted: z.boolean(),
  reactions: z.object({ like: z.number().int() }),
  likesCount: z.number().int(),
  repliesCount: z.number().int(),
  userReacted: z.boolean(),
});
export type TComment = z.infer<typeof ZComment>;

export const ZNotification = z.object({
  id: z.string(),
  type: z.enum(['comment', 'reaction', 'follow', 'mention', 'reply', 'share', 'system']),
  actorId: z.string().nullable(),
  actor: z.object({ username: z.string(), displayName: z.string(), profileImageUrl: z.string().nullable() }).nullable(),
  postId: z.string().nullable(),
  commentId: z.string().nullable(),
  title: z.string(),
  message: z.string(),
  read: z.boolean(),
  createdAt: ZTimestamp,
});
export type TNotification = z.infer<typeof ZNotification>;

const ZPostIdParams = z.object({ id: ZIdParam });
const ZUserIdParams = z.object({ userId: ZIdParam });
const ZPostContent = zText({ min: 1, max: POST_MAX_CHARS });
const ZCommentContent = zText({ min: COMMENT_MIN_CHARS, max: COMMENT_MAX_CHARS });
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
  summary: 'Posts newest first: all, by author (userId, actorId), of followed users with their reposts (following=true); page/offset or cursor',
  tag: 'posts',
  auth: 'public',
  rateLimit: 'postsList',
  query: z.object({
    page: zQueryInt({ default: 1, min: 1 }),
    limit: zQueryInt({ default: 20, min: 1, max: 100 }),
    offset: zQueryIntOptional({ min: 0, max: 100_000 }),
    cursor: z.string().min(1).max(500).optional(),
    userId: ZIdParam.optional(),
    actorId: ZIdParam.optional(),
    type: z.enum(['post', 'article']).optional(),
    following: zQueryBool.optional(),
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
  body: z.strictObject({
    content: ZPostContent,
    type: z.enum(['post', 'article']).default('post'),
    relatedQuestion: ZIdParam.nullish(),
    imageUrl: z.string().trim().max(2000).nullish(),
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
  rateLimit: 'postsList',
  query: z.object({ limit: zQueryInt({ default: 20, min: 1, max: 100 }), cursor: z.string().min(1).max(500).optional() }),
  response: ZFeedResponse,
});

export const commentsList = defineEndpoint({
  id: 'comments.list',
  method: 'GET',
  path: '/api/posts/{id}/comments',
  summary: "A post's comments and replies, oldest first (parentCommentId links the thread)",
  tag: 'comments',
  auth: 'public',
  params: ZPostIdParams,
  response: z.object({ success: ZSuccess, comments: z.array(ZComment), count: z.number().int() }),
  errors: ['NOT_FOUND'],
});

const commentErrors = ['NOT_FOUND', 'VALIDATION_ERROR', 'RATE_LIMIT_EXCEEDED'] as const;
const ZCommentResponse = z.object({ success: ZSuccess, comment: ZComment });

export const commentsCreate = defineEndpoint({
  id: 'comments.create',
  method: 'POST',
  path: '/api/posts/{id}/comments',
  summary: 'Comment on a post, or reply to one of its comments (parentCommentId); at least 10 characters',
  tag: 'comments',
  auth: 'user',
  rateLimit: 'comment',
  params: ZPostIdParams,
  body: z.strictObject({ content: ZCommentContent, parentCommentId: ZIdParam.nullish() }),
  status: 201,
  response: ZCommentResponse,
  errors: commentErrors,
});

export const postsReply = defineEndpoint({
  id: 'posts.reply',
  method: 'POST',
  path: '/api/posts/{id}/reply',
  summary: 'Reply on a post, nested under parentId when given (quality and rate checks apply)',
  tag: 'comments',
  auth: 'user',
  rateLimit: 'comment',
  params: ZPostIdParams,
  body: z.strictObject({ content: ZCommentContent, parentId: ZIdParam.nullish(), parentCommentId: ZIdParam.nullish() }),
  status: 201,
  response: ZCommentResponse,
  errors: commentErrors,
});

export const commentsReply = defineEndpoint({
  id: 'comments.reply',
  method: 'POST',
  path: '/api/comments/{id}/replies',
  summary: 'Reply to a comment',
  tag: 'comments',
  auth: 'user',
  rateLimit: 'comment',
  params: ZPostIdParams,
  body: z.strictObject({ content: ZCommentContent }),
  status: 201,
  response: ZCommentResponse,
  errors: commentErrors,
});

export const commentsUpdate = defineEndpoint({
  id: 'comments.update',
  method: 'PATCH',
  path: '/api/comments/{id}',
  summary: 'Edit a comment (its author only)',
  tag: 'comments',
  auth: 'user',
  params: ZPostIdParams,
  body: z.strictObject({ content: ZCommentContent }),
  response: ZCommentResponse,
  errors: ['NOT_FOUND', 'FORBIDDEN', 'VALIDATION_ERROR'],
});

export const commentsDelete = defineEndpoint({
  id: 'comments.delete',
  method: 'DELETE',
  path: '/api/comments/{id}',
  summary: 'Delete a comment (its author only); its replies stay in the thread',
  tag: 'comments',
  auth: 'user',
  params: ZPostIdParams,
  response: z.object({ success: ZSuccess, deleted: z.boolean(), id: z.string() }),
  errors: ['NOT_FOUND', 'FORBIDDEN'],
});

const ZLikeResponse = z.object({ success: ZSuccess, liked: z.boolean(), reactionCount: z.number().int(), likesCount: z.number().int() });

export const postsLike = defineEndpoint({
  id: 'posts.like',
  method: 'POST',
  path: '/api/posts/{id}/like',
  summary: 'Like a post (a second like changes nothing)',
  tag: 'reactions',
  auth: 'user',
  rateLimit: 'like',
  params: ZPostIdParams,
  response: ZLikeResponse,
  errors: ['NOT_FOUND'],
});

export const postsUnlike = defineEndpoint({ ...postsLike, id: 'posts.unlike', method: 'DELETE', summary: 'Unlike a post' });

export const commentsLike = defineEndpoint({
  id: 'comments.like',
  method: 'POST',
  path: '/api/comments/{id}/like',
  summary: 'Like a comment',
  tag: 'reactions',
  auth: 'user',
  rateLimit: 'like',
  params: ZPostIdParams,
  response: ZLikeResponse,
  errors: ['NOT_FOUND'],
});

export const commentsUnlike = defineEndpoint({ ...commentsLike, id: 'comments.unlike', method: 'DELETE', summary: 'Unlike a comment' });

const ZShare = z.object({ id: z.string(), userId: z.string(), postId: z.string(), quote: z.string().nullable(), quoteComment: z.string().nullable(), createdAt: ZTimestamp });

export const postsShare = defineEndpoint({
  id: 'posts.share',
  method: 'POST',
  path: '/api/posts/{id}/share',
  summary: "Share (repost) a post to one's followers, with an optional quote",
  tag: 'reactions',
  auth: 'user',
  rateLimit: 'share',
  params: ZPostIdParams,
  body: z.strictObject({ quoteComment: ZQuote, quote: ZQuote }),
  status: 201,
  response: z.object({ success: ZSuccess, share: ZShare, shared: z.boolean(), sharesCount: z.number().int() }),
  errors: ['NOT_FOUND'],
});

export const postsUnshare = defineEndpoint({
  id: 'posts.unshare',
  method: 'DELETE',
  path: '/api/posts/{id}/share',
  summary: 'Remove a share',
  tag: 'reactions',
  auth: 'user',
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

export const widgetsTrendingPosts = defineEndpoint({
  id: 'widgets.trendingPosts',
  method: 'GET',
  path: '/api/feed/widgets/trending-posts',
  summary: 'Posts ranked by engagement and recency (time decay), each with its score',
  tag: 'widgets',
  auth: 'public',
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
  query: z.object({ limit: zQueryInt({ default: 10, min: 1, max: 50 }) }),
  response: z.object({
    success: ZSuccess,
    tags: z.array(z.object({ tag: z.string(), name: z.string(), score: z.number(), count: z.number().int(), postsCount: z.number().int() })),
  }),
});

export const trendingTag = defineEndpoint({
  id: 'trending.tag',
  method: 'GET',
  path: '/api/trending/{tag}',
  summary: 'Posts with a tag, newest first',
  tag: 'trending',
  auth: 'public',
  params: z.object({ tag: z.string().min(1).max(51).transform((t) => t.replace(/^#/, '').toLowerCase()) }),
  query: z.object({ limit: zQueryInt({ default: 20, min: 1, max: 100 }), offset: zQueryInt({ default: 0, max: 100_000 }) }),
  response: z.object({ success: ZSuccess, tag: z.string(), posts: z.array(ZPost), count: z.number().int(), total: z.number().int() }),
});

export const usersFollow = defineEndpoint({
  id: 'users.follow',
  method: 'POST',
  path: '/api/users/{userId}/follow',
  summary: 'Follow a user (201); not oneself, not twice',
  tag: 'follows',
  auth: 'user',
  rateLimit: 'follow',
  params: ZUserIdParams,
  status: 201,
  response: z.object({ success: ZSuccess, following: z.boolean(), followersCount: z.number().int() }),
  errors: ['CANNOT_FOLLOW_SELF', 'ALREADY_FOLLOWING', 'USER_NOT_FOUND'],
});

export const usersUnfollow = defineEndpoint({
  id: 'users.unfollow',
  method: 'DELETE',
  path: '/api/users/{userId}/follow',
  summary: 'Stop following a user (404 when not following)',
  tag: 'follows',
  auth: 'user',
  rateLimit: 'follow',
  params: ZUserIdParams,
  response: z.object({ success: ZSuccess, following: z.boolean(), followersCount: z.number().int() }),
  errors: ['NOT_FOUND', 'USER_NOT_FOUND'],
});

export const usersFollowStatus = defineEndpoint({
  id: 'users.followStatus',
  method: 'GET',
  path: '/api/users/{userId}/follow',
  summary: 'Whether the caller follows the user',
  tag: 'follows',
  auth: 'user',
  params: ZUserIdParams,
  response: z.object({ success: ZSuccess, isFollowing: z.boolean(), following: z.boolean() }),
  errors: ['USER_NOT_FOUND'],
});

const ZFollowUser = z.object({
  id: z.string(),
  username: z.string(),
  displayName: z.string(),
  profileImageUrl: z.string().nullable(),
  isActor: z.boolean(),
  followedAt: ZTimestamp,
  /** Whether the caller follows this user (false when signed out): lists need no request per row. */
  isFollowing: z.boolean(),
});

const ZListQuery = z.object({ limit: zQueryInt({ default: 50, min: 1, max: 200 }), offset: zQueryInt({ default: 0, max: 100_000 }) });
const followListResponse = <K extends string>(key: K) =>
  z.object({ success: ZSuccess, users: z.array(ZFollowUser), count: z.number().int(), total: z.number().int() }).extend({
    [key]: z.array(ZFollowUser),
  } as Record<K, z.ZodArray<typeof ZFollowUser>>);

export const usersFollowers = defineEndpoint({
  id: 'users.followers',
  method: 'GET',
  path: '/api/users/{userId}/followers',
  summary: "A user's followers, newest first",
  tag: 'follows',
  auth: 'public',
  params: ZUserIdParams,
  query: ZListQuery,
  response: followListResponse('followers'),
  errors: ['USER_NOT_FOUND'],
});

export const usersFollowing = defineEndpoint({
  ...usersFollowers,
  id: 'users.following',
  path: '/api/users/{userId}/following',
  summary: 'The users a user follows, newest first',
  response: followListResponse('following'),
});

export const usersPosts = defineEndpoint({
  id: 'users.posts',
  method: 'GET',
  path: '/api/users/{userId}/posts',
  summary: "A user's posts, newest first, with pagination",
  tag: 'posts',
  auth: 'public',
  rateLimit: 'postsList',
  params: ZUserIdParams,
  query: z.object({ page: zQueryInt({ default: 1, min: 1 }), limit: zQueryInt({ default: 20, min: 1, max: 100 }), type: z.enum(['post', 'article']).optional() }),
  response: z.object({ success: ZSuccess, posts: z.array(ZPost), pagination: ZPagination }),
  errors: ['USER_NOT_FOUND'],
});

export const profilesFavorite = defineEndpoint({
  id: 'profiles.favorite',
  method: 'POST',
  path: '/api/profiles/{userId}/favorite',
  summary: 'Favorite a profile (its posts appear in the favorites feed)',
  tag: 'follows',
  auth: 'user',
  params: ZUserIdParams,
  response: z.object({ success: ZSuccess, favorited: z.boolean() }),
  errors: ['USER_NOT_FOUND', 'VALIDATION_ERROR'],
});

export const profilesUnfavorite = defineEndpoint({ ...profilesFavorite, id: 'profiles.unfavorite', method: 'DELETE', summary: 'Remove a profile from favorites' });

const ZFavoriteProfile = ZUserSummary.extend({ favoritedAt: ZTimestamp });

export const profilesFavorites = defineEndpoint({
  id: 'profiles.favorites',
  method: 'GET',
  path: '/api/profiles/favorites',
  summary: "The caller's favorited profiles",
  tag: 'follows',
  auth: 'user',
  response: z.object({
    success: ZSuccess,
    profiles: z.array(ZFavoriteProfile),
    favorites: z.array(ZFavoriteProfile),
    count: z.number().int(),
  }),
});

export const notificationsList = defineEndpoint({
  id: 'notifications.list',
  method: 'GET',
  path: '/api/notifications',
  summary: "The caller's notifications, newest first, with the unread count",
  tag: 'notifications',
  auth: 'user',
  query: z.object({ unread: zQueryBool.optional(), limit: zQueryInt({ default: 50, min: 1, max: 100 }) }),
  response: z.object({ success: ZSuccess, notifications: z.array(ZNotification), unreadCount: z.number().int() }),
});

const ZMarkBody = z.strictObject({ notificationIds: z.array(ZIdParam).max(500).optional(), all: z.boolean().optional() });
const namesSome = (b: z.infer<typeof ZMarkBody>) => b.all === true || (b.notificationIds?.length ?? 0) > 0;
const needIds = { message: 'notificationIds or all: true is required', path: ['notificationIds'] };
const ZMarkResponse = z.object({ success: ZSuccess, updated: z.number().int(), unreadCount: z.number().int() });

export const notificationsUpdate = defineEndpoint({
  id: 'notifications.update',
  method: 'PATCH',
  path: '/api/notifications',
  summary: 'Mark notifications read or unread: by ids, or all',
  tag: 'notifications',
  auth: 'user',
  body: ZMarkBody.extend({ read: z.boolean().default(true) }).refine(namesSome, needIds),
  response: ZMarkResponse,
});

export const notificationsMarkRead = defineEndpoint({
  id: 'notifications.markRead',
  method: 'POST',
  path: '/api/notifications/mark-read',
  summary: 'Mark notifications read (variant form)',
  tag: 'notifications',
  auth: 'user',
  body: ZMarkBody.refine(namesSome, needIds),
  response: ZMarkResponse,
});

export const socialEndpoints = [
  postsList,
  postsCreate,
  postsGet,
  postsFavoritesFeed,
  commentsList,
  commentsCreate,
  postsReply,
  commentsReply,
  commentsUpdate,
  commentsDelete,
  postsLike,
  postsUnlike,
  commentsLike,
  commentsUnlike,
  postsShare,
  postsUnshare,
  postsInteractions,
  widgetsTrendingPosts,
  widgetsBreakingNews,
  widgetsStats,
  widgetsUpcomingEvents,
  trendingTags,
  trendingTag,
  usersFollow,
  usersUnfollow,
  usersFollowStatus,
  usersFollowers,
  usersFollowing,
  usersPosts,
  profilesFavorite,
  profilesUnfavorite,
  profilesFavorites,
  notificationsList,
  notificationsUpdate,
  notificationsMarkRead,
] as const;
