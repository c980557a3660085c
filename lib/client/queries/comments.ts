/**
 * A post's comments in the browser: the thread (flat from the API, nested here), writing,
 * editing and deleting comments and replies, and comment likes (optimistic: the cache changes at
 * once and is put back if the server says no). queryOptions factories own every query key;
 * invalidations go through them and through postKeys (a comment changes its post's count).
 * I/O: the typed client only.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/client/api';
import { commentsCreate, commentsDelete, commentsLike, commentsList, commentsUnlike, commentsUpdate, type TComment } from '@/lib/contracts/comments';
import { COMMENT_MIN_CHARS, visibleLength } from '@/lib/posts/text';
import { SOCIAL_PACE_MESSAGES, type TErrorMessages } from './errors';
import { postKeys } from './posts';

export type { TComment };
export { COMMENT_MIN_CHARS, visibleLength };

const keys = {
  all: ['comments'] as const,
  thread: (postId: string) => [...keys.all, postId] as const,
};

// ---------------------------------------------------------------------------------------------
// The thread

export function getCommentsQueryOptions(postId: string) {
  return queryOptions({
    queryKey: keys.thread(postId),
    queryFn: async () => (await api(commentsList, { params: { id: postId } })).comments,
  });
}

export function useComments(postId: string) {
  return useQuery(getCommentsQueryOptions(postId));
}

export type TCommentNode = TComment & { replies: TCommentNode[] };

/**
 * The flat list (oldest first) as a thread: top-level comments with their replies nested under
 * them. A reply whose parent is missing from the list is shown at the top level.
 */
export function buildCommentTree(comments: readonly TComment[]): TCommentNode[] {
  const nodes = new Map<string, TCommentNode>(comments.map((c) => [c.id, { ...c, replies: [] }]));
  const roots: TCommentNode[] = [];
  for (const c of comments) {
    const node = nodes.get(c.id)!;
    const parent = c.parentCommentId ? nodes.get(c.parentCommentId) : undefined;
    if (parent) parent.replies.push(node);
    else roots.push(node);
  }
  return roots;
}

export function useCommentThread(postId: string) {
  return useQuery({ ...getCommentsQueryOptions(postId), select: buildCommentTree });
}

// ---------------------------------------------------------------------------------------------
// Writing

export type TCommentDraftProblem = 'too-short' | null;

/** Comments need COMMENT_MIN_CHARS characters (as a reader counts them, trimmed). */
export function commentDraftProblem(text: string): TCommentDraftProblem {
  return visibleLength(text.trim()) < COMMENT_MIN_CHARS ? 'too-short' : null;
}

/** A new or deleted comment changes the thread, the post's comment count, and that count in the feeds. */
const useInvalidateThread = () => {
  const qc = useQueryClient();
  return (postId: string) =>
    Promise.all([
      qc.invalidateQueries({ queryKey: keys.thread(postId) }),
      qc.invalidateQueries({ queryKey: postKeys.post(postId) }),
      qc.invalidateQueries({ queryKey: postKeys.feeds(), refetchType: 'none' }),
    ]);
};

/** A comment on the post, or a reply to one of its comments (parentCommentId). */
export function useCreateComment(postId: string) {
  const invalidate = useInvalidateThread();
  return useMutation({
    mutationFn: async ({ content, parentCommentId }: { content: string; parentCommentId?: string | null }) =>
      (await api(commentsCreate, { params: { id: postId }, body: { content, parentCommentId: parentCommentId ?? null } })).comment,
    onSuccess: () => invalidate(postId),
  });
}

export function useUpdateComment(postId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ commentId, content }: { commentId: string; content: string }) =>
      (await api(commentsUpdate, { params: { id: commentId }, body: { content } })).comment,
    onSuccess: (comment) => {
      qc.setQueryData(keys.thread(postId), (list: TComment[] | undefined) => list?.map((c) => (c.id === comment.id ? comment : c)));
      return qc.invalidateQueries({ queryKey: keys.thread(postId) });
    },
  });
}

export function useDeleteComment(postId: string) {
  const invalidate = useInvalidateThread();
  return useMutation({
    mutationFn: (commentId: string) => api(commentsDelete, { params: { id: commentId } }),
    onSuccess: () => invalidate(postId),
  });
}

// ---------------------------------------------------------------------------------------------
// Likes (optimistic)

export function useToggleCommentLike(postId: string) {
  const qc = useQueryClient();
  const key = keys.thread(postId);
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
}

// ---------------------------------------------------------------------------------------------
// Errors

/**
 * The sentences a failed comment action shows: describeError(error, COMMENT_ERROR_MESSAGES).
 * Editing or deleting someone else's comment is the one FORBIDDEN a reader can meet.
 */
export const COMMENT_ERROR_MESSAGES: TErrorMessages = {
  ...SOCIAL_PACE_MESSAGES,
  FORBIDDEN: 'Only the author can change this.',
};
