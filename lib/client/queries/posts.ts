/**
 * Posts in the browser: feeds (cursor-paged), one post and its interactions, tag pages, a user's
 * posts, posting (with an uploaded image), likes and shares. queryOptions factories own every
 * query key; hooks and invalidations go through them. Likes and shares are optimistic: the cache
 * changes at once and is put back if the server says no. Every query that holds posts lives under
 * one key prefix (postKeys.all), so a like can be applied to every copy of a post on screen.
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
import { flattenUnique } from '@/lib/client/pages';
import { refetchAnew } from '@/lib/client/refetch';
import { api, apiForm } from '@/lib/client/api';
import type { TEndpointResponse } from '@/lib/contracts/endpoint';
import {
  postsCreate,
  postsFavoritesFeed,
  postsGet,
  postsInteractions,
  postsLike,
  postsList,
  postsShare,
  postsUnlike,
  postsUnshare,
  trendingTag,
  usersPosts,
  type TPost,
  type TPostMarket,
  type TPostTrade,
} from '@/lib/contracts/posts';
import { uploadImage } from '@/lib/contracts/uploads';
import { POST_MAX_CHARS, visibleLength } from '@/lib/posts/text';
import { MAX_UPLOAD_BYTES } from '@/lib/uploads/limits';
import { SOCIAL_PACE_MESSAGES, type TErrorMessages } from './errors';
import { getMarketsQueryOptions } from './markets';
import { widgetKeys } from './widgets';

export type { TPost, TPostMarket, TPostTrade };
export { POST_MAX_CHARS, visibleLength };
export type TFeedPage = TEndpointResponse<typeof postsList>;
export type TFeedKind = 'latest' | 'following' | 'favorites';
/** Narrowing the latest feed (GET /api/posts `filter`: players, mine); `everyone` is the plain feed. Following and favorites ignore it. */
export type TFeedFilter = 'everyone' | 'players' | 'mine';
export type TInteractions = TEndpointResponse<typeof postsInteractions>;
export type TUploadedImage = TEndpointResponse<typeof uploadImage>;

/**
 * The keys of post queries. Exported for the other query modules' invalidations (a comment
 * changes its post's count in every feed; following someone changes the Following feed);
 * components never use keys.
 */
export const postKeys = {
  /** Every query whose data holds posts (feeds, one post, tag pages, a user's posts). */
  all: ['posts'] as const,
  feeds: () => [...postKeys.all, 'feed'] as const,
  /** A filtered feed sits under its unfiltered key, so what invalidates the feed reaches it too. */
  feed: (kind: TFeedKind, filter: TFeedFilter = 'everyone') =>
    kind === 'latest' && filter !== 'everyone' ? ([...postKeys.feeds(), kind, { filter }] as const) : ([...postKeys.feeds(), kind] as const),
  post: (id: string) => [...postKeys.all, 'detail', id] as const,
  tagPosts: (tag: string) => [...postKeys.all, 'tag', tag.toLowerCase()] as const,
  userPosts: (userId: string) => [...postKeys.all, 'user', userId] as const,
  /** Who liked and shared a post: holds no posts, so it stays outside postKeys.all. */
  interactions: (postId: string) => ['post-interactions', postId] as const,
};

// ---------------------------------------------------------------------------------------------
// Feeds, cursor-paged

export const FEED_PAGE_SIZE = 20;

const feedQuery = (kind: TFeedKind, cursor: string | undefined, filter: TFeedFilter) => {
  if (kind === 'favorites') return api(postsFavoritesFeed, { query: { limit: FEED_PAGE_SIZE, cursor } });
  return api(postsList, {
    query: {
      limit: FEED_PAGE_SIZE,
      cursor,
      ...(kind === 'following' ? { filter: 'following' as const } : filter !== 'everyone' ? { filter } : {}),
    },
  });
};

export function getFeedQueryOptions(kind: TFeedKind, filter: TFeedFilter = 'everyone') {
  return infiniteQueryOptions({
    queryKey: postKeys.feed(kind, filter),
    queryFn: ({ pageParam }) => feedQuery(kind, pageParam, filter),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** A feed item's key: a repost is the same post as the original, shared by someone else. */
export function feedItemKey(p: TPost) {
  return (p.repost ? `${p.id}:${p.repost.id}` : p.id);
}

/** The items of all loaded pages, newest first; a post that moved between pages shows once. */
const selectFeed = (data: InfiniteData<{ posts: TPost[] }, unknown>) => flattenUnique(data.pages, (page) => page.posts, feedItemKey);

export function useFeed(kind: TFeedKind, { isEnabled = true, filter = 'everyone' }: { isEnabled?: boolean; filter?: TFeedFilter } = {}) {
  return useInfiniteQuery({ ...getFeedQueryOptions(kind, filter), enabled: isEnabled, select: selectFeed });
}

// ---------------------------------------------------------------------------------------------
// One post and its interactions

export function getPostQueryOptions(id: string) {
  return queryOptions({
    queryKey: postKeys.post(id),
    queryFn: async () => (await api(postsGet, { params: { id } })).post,
  });
}

export function usePost(id: string) {
  return useQuery(getPostQueryOptions(id));
}

export function getInteractionsQueryOptions(postId: string) {
  return queryOptions({
    queryKey: postKeys.interactions(postId),
    queryFn: () => api(postsInteractions, { params: { id: postId } }),
  });
}

export function useInteractions(postId: string) {
  return useQuery(getInteractionsQueryOptions(postId));
}

// ---------------------------------------------------------------------------------------------
// The market on a post's card, live

/**
 * A post's market as its card shows it: the snapshot the post came with, then the live figures of
 * the active markets list (one request for every card on screen, however many posts name a
 * market). That list is what the realtime cache patches on each `market_update` (prices at once,
 * the 24 h change after a short throttle: lib/client/realtime/cache.ts), so the card's price moves
 * with the market. A resolved market does not move: its snapshot is final.
 */
export function usePostMarket(snapshot: TPostMarket | null): TPostMarket | null {
  const id = snapshot?.id;
  const live = useQuery({
    ...getMarketsQueryOptions('active'),
    enabled: snapshot?.status === 'active',
    select: (list) => list.find((m) => m.id === id),
  }).data;
  if (!snapshot || !live) return snapshot;
  return {
    ...snapshot,
    yesPrice: live.yesPrice,
    noPrice: live.noPrice,
    change24h: live.change24h,
    status: live.status,
    resolvedOutcome: live.resolvedOutcome,
  };
}

/**
 * After the trade sheet closes on one's own post: the posts on screen reload, so the card's
 * "holds 120 YES at 41¢" shows the position just taken. Others' posts show their authors'
 * positions, which a reader's trade does not change: nothing to reload then.
 */
export function useRefreshOwnPostPosition() {
  const qc = useQueryClient();
  return (post: Pick<TPost, 'authorId'>, readerId: string | undefined) => {
    if (readerId && post.authorId === readerId) void qc.invalidateQueries({ queryKey: postKeys.all });
  };
}

// ---------------------------------------------------------------------------------------------
// Tag pages, a user's posts

export const TAG_PAGE_SIZE = 20;

export function getTagPostsQueryOptions(tag: string) {
  return infiniteQueryOptions({
    queryKey: postKeys.tagPosts(tag),
    queryFn: ({ pageParam }) => api(trendingTag, { params: { tag }, query: { limit: TAG_PAGE_SIZE, offset: pageParam } }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.posts.length, 0);
      return last.posts.length < TAG_PAGE_SIZE || loaded >= last.total ? undefined : loaded;
    },
  });
}

export function useTagPosts(tag: string) {
  return useInfiniteQuery({ ...getTagPostsQueryOptions(tag), select: selectFeed });
}

export const USER_POSTS_PAGE_SIZE = 20;

export function getUserPostsQueryOptions(userId: string) {
  return infiniteQueryOptions({
    queryKey: postKeys.userPosts(userId),
    queryFn: ({ pageParam }) => api(usersPosts, { params: { userId }, query: { page: pageParam, limit: USER_POSTS_PAGE_SIZE } }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.pagination.page < last.pagination.pages ? last.pagination.page + 1 : undefined),
  });
}

export function useUserPosts(userId: string | undefined) {
  return useInfiniteQuery({ ...getUserPostsQueryOptions(userId ?? ''), enabled: !!userId, select: selectFeed });
}

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
  await qc.cancelQueries({ queryKey: postKeys.all });
  const snapshot = qc.getQueriesData({ queryKey: postKeys.all });
  qc.setQueriesData({ queryKey: postKeys.all }, (data: unknown) => patchPostInData(data, postId, change));
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
export function postDraftProblem(text: string): TPostDraftProblem {
  const n = visibleLength(text.trim());
  if (n === 0) return 'empty';
  if (n > POST_MAX_CHARS) return 'too-long';
  return null;
}

export function useCreatePost() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ content, imageUrl }: { content: string; imageUrl?: string | null }) =>
      (await api(postsCreate, { body: { content, type: 'post', imageUrl: imageUrl ?? null } })).post,
    // Anew: a feed still on its first load was read before this post existed, and would miss it
    // until the next reload. Trending tags and posts, the stats: every widget may move with a new post.
    onSuccess: () => refetchAnew(qc, postKeys.all, widgetKeys.all),
  });
}

/** Uploads a picked image for a post; answers the stored image (its relative `url` goes with the post). */
export function useUploadPostImage() {
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.set('file', file);
      form.set('type', 'post');
      return apiForm(uploadImage, form);
    },
  });
}

/** The server's own limit (lib/uploads/limits), checked before a byte is sent. */
export const IMAGE_MAX_BYTES = MAX_UPLOAD_BYTES;
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'];

/** A problem with a picked file before uploading it, or null. */
export function imageFileProblem(file: File) {
  if (!IMAGE_TYPES.includes(file.type)) return 'Pick a JPEG, PNG, WebP or GIF image.';
  if (file.size > IMAGE_MAX_BYTES) return 'That image is larger than 5 MB.';
  return null;
}

// ---------------------------------------------------------------------------------------------
// Likes and shares (optimistic)

export function useTogglePostLike() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ postId, like }: { postId: string; like: boolean }) => api(like ? postsLike : postsUnlike, { params: { id: postId } }),
    onMutate: async ({ postId, like }) => ({ snapshot: await patchPostEverywhere(qc, postId, (p) => withLike(p, like)) }),
    onError: (_e, _v, ctx) => restore(qc, ctx?.snapshot),
    onSuccess: (res, { postId }) => {
      qc.setQueriesData({ queryKey: postKeys.all }, (data: unknown) =>
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
    onSettled: (_d, _e, { postId }) => qc.invalidateQueries({ queryKey: postKeys.interactions(postId) }),
  });
}

export function useTogglePostShare() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ postId, share, quoteComment }: { postId: string; share: boolean; quoteComment?: string }) =>
      share ? api(postsShare, { params: { id: postId }, body: { quoteComment: quoteComment || null } }) : api(postsUnshare, { params: { id: postId } }),
    onMutate: async ({ postId, share }) => ({ snapshot: await patchPostEverywhere(qc, postId, (p) => withShare(p, share)) }),
    onError: (_e, _v, ctx) => restore(qc, ctx?.snapshot),
    onSuccess: (res, { postId }) => {
      qc.setQueriesData({ queryKey: postKeys.all }, (data: unknown) =>
        patchPostInData(data, postId, (p) => ({ ...p, userShared: res.shared, sharesCount: res.sharesCount })),
      );
    },
    onSettled: (_d, _e, { postId }) =>
      Promise.all([
        qc.invalidateQueries({ queryKey: postKeys.interactions(postId) }),
        // A repost appears in (or leaves) the followers' feeds.
        qc.invalidateQueries({ queryKey: postKeys.feed('following'), refetchType: 'none' }),
      ]),
  });
}

// ---------------------------------------------------------------------------------------------
// Errors

/** The sentences a failed post, upload, like or share shows: describeError(error, POST_ERROR_MESSAGES). */
export const POST_ERROR_MESSAGES: TErrorMessages = { ...SOCIAL_PACE_MESSAGES };
