/**
 * The social side in the browser: feeds (cursor-paged), one post, its comment thread and
 * interactions, trending tags and tag pages, the feed widgets, follows and favorites, and the
 * mutations (posting, commenting, likes, shares, follows). queryOptions factories own every query
 * key; hooks and invalidations go through them. Likes, shares and follows are optimistic: the
 * cache changes at once and is put back if the server says no. Every query that holds posts lives
 * under one key prefix, so a like can be applied to every copy of a post on screen.
 * I/O: the typed client only.
 */
import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
  type QueryKey,
} from '@tanstack/react-query';
import { api, apiForm } from '@/lib/client/api';
import type { TEndpointResponse } from '@/lib/contracts/endpoint';
import { commentsCreate, commentsDelete, commentsLike, commentsList, commentsUnlike, commentsUpdate, type TComment } from '@/lib/contracts/comments';
import { profilesFavorite, profilesFavorites, profilesUnfavorite, usersFollow, usersFollowers, usersFollowing, usersFollowStatus, usersUnfollow } from '@/lib/contracts/follows';
import { postsCreate, postsFavoritesFeed, postsGet, postsInteractions, postsLike, postsList, postsShare, postsUnlike, postsUnshare, trendingTag, usersPosts, type TPost } from '@/lib/contracts/posts';
import { trendingTags, widgetsBreakingNews, widgetsStats, widgetsTrendingPosts, widgetsUpcomingEvents } from '@/lib/contracts/widgets';
import type { TUser } from '@/lib/contracts/users';
import { uploadImage } from '@/lib/contracts/uploads';
import { COMMENT_MIN_CHARS, POST_MAX_CHARS, visibleLength } from '@/lib/posts/text';
import { describeError, hasErrorCode } from './errors';
import { getMeQueryOptions, getProfileQueryOptions } from './users';

export type { TComment, TPost };
export { COMMENT_MIN_CHARS, POST_MAX_CHARS, visibleLength };
export type TFeedPage = TEndpointResponse<typeof postsList>;
export type TFeedKind = 'latest' | 'following' | 'favorites';
export type TTrendingTag = TEndpointResponse<typeof trendingTags>['tags'][number];
export type TTrendingPost = TEndpointResponse<typeof widgetsTrendingPosts>['posts'][number];
export type TFollowUser = TEndpointResponse<typeof usersFollowers>['followers'][number];
export type TInteractions = TEndpointResponse<typeof postsInteractions>;
export type TUploadedImage = TEndpointResponse<typeof uploadImage>;

const keys = {
  all: ['social'] as const,
  /** Every query whose data holds posts (feeds, one post, tag pages, a user's posts). */
  posts: () => [...keys.all, 'posts'] as const,
  feeds: () => [...keys.posts(), 'feed'] as const,
  feed: (kind: TFeedKind) => [...keys.feeds(), kind] as const,
  post: (id: string) => [...keys.posts(), 'detail', id] as const,
  tagPosts: (tag: string) => [...keys.posts(), 'tag', tag.toLowerCase()] as const,
  userPosts: (userId: string) => [...keys.posts(), 'user', userId] as const,
  comments: (postId: string) => [...keys.all, 'comments', postId] as const,
  interactions: (postId: string) => [...keys.all, 'interactions', postId] as const,
  trendingTags: (limit: number) => [...keys.all, 'trending-tags', limit] as const,
  widgets: () => [...keys.all, 'widgets'] as const,
  widget: (name: string, limit?: number) => [...keys.widgets(), name, limit ?? 0] as const,
  follows: () => [...keys.all, 'follow'] as const,
  followStatus: (userId: string) => [...keys.follows(), 'status', userId] as const,
  followers: (userId: string) => [...keys.follows(), 'followers', userId] as const,
  following: (userId: string) => [...keys.follows(), 'following', userId] as const,
  favorites: () => [...keys.all, 'favorites'] as const,
};

// ---------------------------------------------------------------------------------------------
// Feeds, cursor-paged

export const FEED_PAGE_SIZE = 20;

const feedQuery = (kind: TFeedKind, cursor: string | undefined) => {
  if (kind === 'favorites') return api(postsFavoritesFeed, { query: { limit: FEED_PAGE_SIZE, cursor } });
  return api(postsList, { query: { limit: FEED_PAGE_SIZE, cursor, ...(kind === 'following' ? { following: 'true' as const } : {}) } });
};

export const getFeedQueryOptions = (kind: TFeedKind) =>
  infiniteQueryOptions({
    queryKey: keys.feed(kind),
    queryFn: ({ pageParam }) => feedQuery(kind, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

/** A feed item's key: a repost is the same post as the original, shared by someone else. */
export const feedItemKey = (p: TPost) => (p.repost ? `${p.id}:${p.repost.id}` : p.id);

/** The items of all loaded pages, newest first; a post that moved between pages shows once. */
const selectFeed = (data: InfiniteData<{ posts: TPost[] }, unknown>) => {
  const seen = new Set<string>();
  const posts: TPost[] = [];
  for (const page of data.pages) {
    for (const p of page.posts) {
      const k = feedItemKey(p);
      if (seen.has(k)) continue;
      seen.add(k);
      posts.push(p);
    }
  }
  return posts;
};

export const useFeed = (kind: TFeedKind, { isEnabled = true }: { isEnabled?: boolean } = {}) =>
  useInfiniteQuery({ ...getFeedQueryOptions(kind), enabled: isEnabled, select: selectFeed });

// ---------------------------------------------------------------------------------------------
// One post, its comments and interactions

export const getPostQueryOptions = (id: string) =>
  queryOptions({
    queryKey: keys.post(id),
    queryFn: async () => (await api(postsGet, { params: { id } })).post,
  });

export const usePost = (id: string) => useQuery(getPostQueryOptions(id));

export const getCommentsQueryOptions = (postId: string) =>
  queryOptions({
    queryKey: keys.comments(postId),
    queryFn: async () => (await api(commentsList, { params: { id: postId } })).comments,
  });

export const useComments = (postId: string) => useQuery(getCommentsQueryOptions(postId));

export type TCommentNode = TComment & { replies: TCommentNode[] };

/**
 * The flat list (oldest first) as a thread: top-level comments with their replies nested under
 * them. A reply whose parent is missing from the list is shown at the top level.
 */
export const buildCommentTree = (comments: readonly TComment[]): TCommentNode[] => {
  const nodes = new Map<string, TCommentNode>(comments.map((c) => [c.id, { ...c, replies: [] }]));
  const roots: TCommentNode[] = [];
  for (const c of comments) {
    const node = nodes.get(c.id)!;
    const parent = c.parentCommentId ? nodes.get(c.parentCommentId) : undefined;
    if (parent) parent.replies.push(node);
    else roots.push(node);
  }
  return roots;
};

export const useCommentThread = (postId: string) => useQuery({ ...getCommentsQueryOptions(postId), select: buildCommentTree });

export const getInteractionsQueryOptions = (postId: string) =>
  queryOptions({
    queryKey: keys.interactions(postId),
    queryFn: () => api(postsInteractions, { params: { id: postId } }),
  });

export const useInteractions = (postId: string) => useQuery(getInteractionsQueryOptions(postId));

// ---------------------------------------------------------------------------------------------
// Trending tags, tag pages, a user's posts

export const getTrendingTagsQueryOptions = (limit = 10) =>
  queryOptions({
    queryKey: keys.trendingTags(limit),
    queryFn: async () => (await api(trendingTags, { query: { limit } })).tags,
    staleTime: 60_000,
  });

export const useTrendingTags = (limit = 10) => useQuery(getTrendingTagsQueryOptions(limit));

export const TAG_PAGE_SIZE = 20;

export const getTagPostsQueryOptions = (tag: string) =>
  infiniteQueryOptions({
    queryKey: keys.tagPosts(tag),
    queryFn: ({ pageParam }) => api(trendingTag, { params: { tag }, query: { limit: TAG_PAGE_SIZE, offset: pageParam } }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.posts.length, 0);
      return last.posts.length < TAG_PAGE_SIZE || loaded >= last.total ? undefined : loaded;
    },
  });

export const useTagPosts = (tag: string) => useInfiniteQuery({ ...getTagPostsQueryOptions(tag), select: selectFeed });

export const USER_POSTS_PAGE_SIZE = 20;

export const getUserPostsQueryOptions = (userId: string) =>
  infiniteQueryOptions({
    queryKey: keys.userPosts(userId),
    queryFn: ({ pageParam }) => api(usersPosts, { params: { userId }, query: { page: pageParam, limit: USER_POSTS_PAGE_SIZE } }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.pagination.page < last.pagination.pages ? last.pagination.page + 1 : undefined),
  });

export const useUserPosts = (userId: string | undefined) =>
  useInfiniteQuery({ ...getUserPostsQueryOptions(userId ?? ''), enabled: !!userId, select: selectFeed });

// ---------------------------------------------------------------------------------------------
// Widgets

export const getTrendingPostsQueryOptions = (limit = 5) =>
  queryOptions({
    queryKey: keys.widget('trending-posts', limit),
    queryFn: async () => (await api(widgetsTrendingPosts, { query: { limit } })).posts,
    staleTime: 60_000,
  });

export const useTrendingPosts = (limit = 5) => useQuery(getTrendingPostsQueryOptions(limit));

export const getBreakingNewsQueryOptions = () =>
  queryOptions({ queryKey: keys.widget('breaking-news'), queryFn: async () => (await api(widgetsBreakingNews)).news, staleTime: 60_000 });

export const useBreakingNews = () => useQuery(getBreakingNewsQueryOptions());

export const getPlatformStatsQueryOptions = () =>
  queryOptions({ queryKey: keys.widget('stats'), queryFn: async () => (await api(widgetsStats)).stats, staleTime: 60_000 });

export const usePlatformStats = () => useQuery(getPlatformStatsQueryOptions());

export const getUpcomingEventsQueryOptions = () =>
  queryOptions({ queryKey: keys.widget('upcoming-events'), queryFn: async () => (await api(widgetsUpcomingEvents)).events, staleTime: 60_000 });

export const useUpcomingEvents = () => useQuery(getUpcomingEventsQueryOptions());

// ---------------------------------------------------------------------------------------------
// Follows and favorites

export const getFollowStatusQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: keys.followStatus(userId),
    queryFn: async () => (await api(usersFollowStatus, { params: { userId } })).isFollowing,
    // Follower lists seed these (each row says whether the caller follows it): trust them a while.
    staleTime: 30_000,
  });

/** Puts each listed user's follow status into the cache, so the rows' buttons ask nothing. */
const seedFollowStatuses = (qc: QueryClient, list: { id: string; isFollowing: boolean }[]) => {
  for (const u of list) qc.setQueryData(keys.followStatus(u.id), u.isFollowing);
};

/** Whether the signed-in user follows `userId`; idle when signed out or on one's own profile. */
export const useFollowStatus = (userId: string | undefined, { isEnabled = true }: { isEnabled?: boolean } = {}) =>
  useQuery({ ...getFollowStatusQueryOptions(userId ?? ''), enabled: !!userId && isEnabled });

export const FOLLOW_LIST_LIMIT = 100;

export const getFollowersQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: keys.followers(userId),
    queryFn: async ({ client }) => {
      const res = await api(usersFollowers, { params: { userId }, query: { limit: FOLLOW_LIST_LIMIT } });
      seedFollowStatuses(client, res.followers);
      return res;
    },
  });

export const useFollowers = (userId: string | undefined) => useQuery({ ...getFollowersQueryOptions(userId ?? ''), enabled: !!userId });

export const getFollowingQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: keys.following(userId),
    queryFn: async ({ client }) => {
      const res = await api(usersFollowing, { params: { userId }, query: { limit: FOLLOW_LIST_LIMIT } });
      seedFollowStatuses(client, res.following);
      return res;
    },
  });

export const useFollowing = (userId: string | undefined) => useQuery({ ...getFollowingQueryOptions(userId ?? ''), enabled: !!userId });

export const getFavoriteProfilesQueryOptions = () =>
  queryOptions({ queryKey: keys.favorites(), queryFn: async () => (await api(profilesFavorites)).profiles });

export const useFavoriteProfiles = ({ isEnabled = true }: { isEnabled?: boolean } = {}) =>
  useQuery({ ...getFavoriteProfilesQueryOptions(), enabled: isEnabled });

// ---------------------------------------------------------------------------------------------
// Optimistic helpers

type TSnapshot = Array<[QueryKey, unknown]>;

const restore = (qc: QueryClient, snapshot: TSnapshot | undefined) => {
  for (const [key, data] of snapshot ?? []) qc.setQueryData(key, data);
};

/** Applies `change` to every copy of a post in every cached feed, page and detail. */
const patchPostInData = (data: unknown, postId: string, change: (p: TPost) => TPost): unknown => {
  if (!data || typeof data !== 'object') return data;
  if ('pages' in data && Array.isArray((data as InfiniteData<unknown>).pages)) {
    const d = data as InfiniteData<unknown>;
    return { ...d, pages: d.pages.map((page) => patchPostInData(page, postId, change)) };
  }
  if ('posts' in data && Array.isArray((data as { posts: unknown }).posts)) {
    const d = data as { posts: TPost[] };
    return { ...d, posts: d.posts.map((p) => (p.id === postId ? change(p) : p)) };
  }
  if ('id' in data && (data as TPost).id === postId && 'likesCount' in data) return change(data as TPost);
  return data;
};

const patchPostEverywhere = async (qc: QueryClient, postId: string, change: (p: TPost) => TPost): Promise<TSnapshot> => {
  await qc.cancelQueries({ queryKey: keys.posts() });
  const snapshot = qc.getQueriesData({ queryKey: keys.posts() });
  qc.setQueriesData({ queryKey: keys.posts() }, (data: unknown) => patchPostInData(data, postId, change));
  return snapshot;
};

const withLike = (p: TPost, liked: boolean): TPost => {
  if (p.userLiked === liked) return p;
  const likes = Math.max(0, p.likesCount + (liked ? 1 : -1));
  return { ...p, userLiked: liked, userReacted: liked, likesCount: likes, reactionCount: likes, reactions: { like: likes, total: likes } };
};

const withShare = (p: TPost, shared: boolean): TPost =>
  p.userShared === shared ? p : { ...p, userShared: shared, sharesCount: Math.max(0, p.sharesCount + (shared ? 1 : -1)) };

// ---------------------------------------------------------------------------------------------
// Posting

export type TPostDraftProblem = 'empty' | 'too-long' | null;

/** What is wrong with a post's text before sending it (the server counts the same way). */
export const postDraftProblem = (text: string): TPostDraftProblem => {
  const n = visibleLength(text.trim());
  if (n === 0) return 'empty';
  if (n > POST_MAX_CHARS) return 'too-long';
  return null;
};

export const useCreatePost = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ content, imageUrl }: { content: string; imageUrl?: string | null }) =>
      (await api(postsCreate, { body: { content, type: 'post', imageUrl: imageUrl ?? null } })).post,
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: keys.posts() }),
        qc.invalidateQueries({ queryKey: keys.trendingTags(10) }),
        qc.invalidateQueries({ queryKey: keys.widgets() }),
      ]),
  });
};

/** Uploads a picked image for a post; answers the stored image (its relative `url` goes with the post). */
export const useUploadPostImage = () =>
  useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.set('file', file);
      form.set('type', 'post');
      return apiForm(uploadImage, form);
    },
  });

export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'];

/** A problem with a picked file before uploading it, or null. */
export const imageFileProblem = (file: File) => {
  if (!IMAGE_TYPES.includes(file.type)) return 'Pick a JPEG, PNG, WebP or GIF image.';
  if (file.size > IMAGE_MAX_BYTES) return 'That image is larger than 5 MB.';
  return null;
};

// ---------------------------------------------------------------------------------------------
// Likes and shares (optimistic)

export const useTogglePostLike = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ postId, like }: { postId: string; like: boolean }) => api(like ? postsLike : postsUnlike, { params: { id: postId } }),
    onMutate: async ({ postId, like }) => ({ snapshot: await patchPostEverywhere(qc, postId, (p) => withLike(p, like)) }),
    onError: (_e, _v, ctx) => restore(qc, ctx?.snapshot),
    onSuccess: (res, { postId }) => {
      qc.setQueriesData({ queryKey: keys.posts() }, (data: unknown) =>
        patchPostInData(data, postId, (p) => ({
          ...p,
          userLiked: res.liked,
          userReacted: res.liked,
          likesCount: res.likesCount,
          reactionCount: res.reactionCount,
          reactions: { like: res.likesCount, total: res.reactionCount },
        })),
      );
    },
    onSettled: (_d, _e, { postId }) => qc.invalidateQueries({ queryKey: keys.interactions(postId) }),
  });
};

export const useTogglePostShare = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ postId, share, quoteComment }: { postId: string; share: boolean; quoteComment?: string }) =>
      share ? api(postsShare, { params: { id: postId }, body: { quoteComment: quoteComment || null } }) : api(postsUnshare, { params: { id: postId } }),
    onMutate: async ({ postId, share }) => ({ snapshot: await patchPostEverywhere(qc, postId, (p) => withShare(p, share)) }),
    onError: (_e, _v, ctx) => restore(qc, ctx?.snapshot),
    onSuccess: (res, { postId }) => {
      qc.setQueriesData({ queryKey: keys.posts() }, (data: unknown) =>
        patchPostInData(data, postId, (p) => ({ ...p, userShared: res.shared, sharesCount: res.sharesCount })),
      );
    },
    onSettled: (_d, _e, { postId }) =>
      Promise.all([
        qc.invalidateQueries({ queryKey: keys.interactions(postId) }),
        // A repost appears in (or leaves) the followers' feeds.
        qc.invalidateQueries({ queryKey: keys.feed('following'), refetchType: 'none' }),
      ]),
  });
};

// ---------------------------------------------------------------------------------------------
// Comments

export type TCommentDraftProblem = 'too-short' | null;

/** Comments need COMMENT_MIN_CHARS characters (as a reader counts them, trimmed). */
export const commentDraftProblem = (text: string): TCommentDraftProblem =>
  visibleLength(text.trim()) < COMMENT_MIN_CHARS ? 'too-short' : null;

const useInvalidateThread = () => {
  const qc = useQueryClient();
  return (postId: string) =>
    Promise.all([
      qc.invalidateQueries({ queryKey: keys.comments(postId) }),
      qc.invalidateQueries({ queryKey: keys.post(postId) }),
      qc.invalidateQueries({ queryKey: keys.feeds(), refetchType: 'none' }),
    ]);
};

/** A comment on the post, or a reply to one of its comments (parentCommentId). */
export const useCreateComment = (postId: string) => {
  const invalidate = useInvalidateThread();
  return useMutation({
    mutationFn: async ({ content, parentCommentId }: { content: string; parentCommentId?: string | null }) =>
      (await api(commentsCreate, { params: { id: postId }, body: { content, parentCommentId: parentCommentId ?? null } })).comment,
    onSuccess: () => invalidate(postId),
  });
};

export const useUpdateComment = (postId: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ commentId, content }: { commentId: string; content: string }) =>
      (await api(commentsUpdate, { params: { id: commentId }, body: { content } })).comment,
    onSuccess: (comment) => {
      qc.setQueryData(keys.comments(postId), (list: TComment[] | undefined) => list?.map((c) => (c.id === comment.id ? comment : c)));
      return qc.invalidateQueries({ queryKey: keys.comments(postId) });
    },
  });
};

export const useDeleteComment = (postId: string) => {
  const invalidate = useInvalidateThread();
  return useMutation({
    mutationFn: (commentId: string) => api(commentsDelete, { params: { id: commentId } }),
    onSuccess: () => invalidate(postId),
  });
};

export const useToggleCommentLike = (postId: string) => {
  const qc = useQueryClient();
  const key = keys.comments(postId);
  const patch = (commentId: string, change: (c: TComment) => TComment) =>
    qc.setQueryData(key, (list: TComment[] | undefined) => list?.map((c) => (c.id === commentId ? change(c) : c)));
  return useMutation({
    mutationFn: ({ commentId, like }: { commentId: string; like: boolean }) => api(like ? commentsLike : commentsUnlike, { params: { id: commentId } }),
    onMutate: async ({ commentId, like }) => {
      await qc.cancelQueries({ queryKey: key });
      const snapshot = qc.getQueryData<TComment[]>(key);
      patch(commentId, (c) => {
        if (c.userReacted === like) return c;
        const likes = Math.max(0, c.likesCount + (like ? 1 : -1));
        return { ...c, userReacted: like, likesCount: likes, reactions: { like: likes } };
      });
      return { snapshot };
    },
    onError: (_e, _v, ctx) => qc.setQueryData(key, ctx?.snapshot),
    onSuccess: (res, { commentId }) => patch(commentId, (c) => ({ ...c, userReacted: res.liked, likesCount: res.likesCount, reactions: { like: res.likesCount } })),
  });
};

// ---------------------------------------------------------------------------------------------
// Following (optimistic) and favorites

const withFollowers = (user: TUser, delta: number): TUser => ({
  ...user,
  stats: { ...user.stats, followersCount: Math.max(0, user.stats.followersCount + delta) },
});

/**
 * Follow or unfollow `userId`. The status and the profile's follower count change at once;
 * pass `username` so the profile shown under that name is updated too.
 */
export const useToggleFollow = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, follow }: { userId: string; follow: boolean; username?: string }) =>
      api(follow ? usersFollow : usersUnfollow, { params: { userId } }),
    onMutate: async ({ userId, follow, username }) => {
      const statusKey = getFollowStatusQueryOptions(userId).queryKey;
      const profileKey = username ? getProfileQueryOptions(username).queryKey : null;
      await Promise.all([qc.cancelQueries({ queryKey: statusKey }), profileKey ? qc.cancelQueries({ queryKey: profileKey }) : null]);
      const previousStatus = qc.getQueryData(statusKey);
      const previousProfile = profileKey ? qc.getQueryData(profileKey) : undefined;
      qc.setQueryData(statusKey, follow);
      if (profileKey && previousStatus !== follow) {
        qc.setQueryData(profileKey, (u: TUser | undefined) => (u ? withFollowers(u, follow ? 1 : -1) : u));
      }
      return { statusKey, profileKey, previousStatus, previousProfile };
    },
    onError: (e, { follow }, ctx) => {
      if (!ctx) return;
      // The server already agrees (followed elsewhere, or not followed any more): keep the new state.
      if ((follow && hasErrorCode(e, 'ALREADY_FOLLOWING')) || (!follow && hasErrorCode(e, 'NOT_FOUND'))) return;
      qc.setQueryData(ctx.statusKey, ctx.previousStatus);
      if (ctx.profileKey) qc.setQueryData(ctx.profileKey, ctx.previousProfile);
    },
    onSuccess: (res, { userId, username }) => {
      qc.setQueryData(getFollowStatusQueryOptions(userId).queryKey, res.following);
      if (username) {
        qc.setQueryData(getProfileQueryOptions(username).queryKey, (u: TUser | undefined) =>
          u ? { ...u, stats: { ...u.stats, followersCount: res.followersCount } } : u,
        );
      }
    },
    onSettled: (_d, _e, { username }) =>
      Promise.all([
        qc.invalidateQueries({ queryKey: keys.follows() }),
        qc.invalidateQueries({ queryKey: keys.feed('following') }),
        // Both sides' counts: the followed profile and one's own (following).
        username ? qc.invalidateQueries({ queryKey: getProfileQueryOptions(username).queryKey }) : null,
        qc.invalidateQueries({ queryKey: getMeQueryOptions().queryKey }),
      ]),
  });
};

export const useToggleFavorite = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, favorite }: { userId: string; favorite: boolean }) =>
      api(favorite ? profilesFavorite : profilesUnfavorite, { params: { userId } }),
    onSettled: () =>
      Promise.all([qc.invalidateQueries({ queryKey: keys.favorites() }), qc.invalidateQueries({ queryKey: keys.feed('favorites') })]),
  });
};

// ---------------------------------------------------------------------------------------------
// Errors

const SOCIAL_MESSAGES: Record<string, string> = {
  CANNOT_FOLLOW_SELF: "You can't follow yourself.",
  ALREADY_FOLLOWING: 'You already follow this player.',
  RATE_LIMIT_EXCEEDED: 'You are going a little fast. Wait a moment and try again.',
  FORBIDDEN: 'Only the author can change this.',
};

/** A sentence for a failed social action; validation errors carry the server's reason. */
export const describeSocialError = (e: unknown) => {
  for (const [code, message] of Object.entries(SOCIAL_MESSAGES)) if (hasErrorCode(e, code)) return message;
  return describeError(e);
};
