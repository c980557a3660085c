/** Comments and replies on posts, their edits and deletions, and comment likes. */
import { z } from 'zod';
import type { TComment } from '@/lib/comments/dto';
import { COMMENT_MAX_CHARS, COMMENT_MIN_CHARS } from '@/lib/posts/text';
import { ZIdParam, ZSuccess, ZTimestamp, zText, type TSame } from './common';
import { ZAuthor, ZLikeResponse, ZPostIdParams } from './posts';
import { defineEndpoint } from './endpoint';

/** What a removed comment's place shows (lib/moderation/reasons), for the comment thread. */
export { removedText } from '@/lib/moderation/reasons';

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
  /** Removed by a moderator: the reason and when (the content is then empty except for moderators); null otherwise. */
  removed: z.object({ reason: z.string().nullable(), at: ZTimestamp }).nullable(),
});

// lib/comments/dto.ts owns the comment's shape; the schema documents exactly that (common.ts TSame).
export type { TComment };
const _comment: TSame<z.infer<typeof ZComment>, TComment> = true;

const ZCommentContent = zText({ min: COMMENT_MIN_CHARS, max: COMMENT_MAX_CHARS });

export const commentsList = defineEndpoint({
  id: 'comments.list',
  method: 'GET',
  path: '/api/posts/{id}/comments',
  summary: "A post's comments and replies, oldest first (parentCommentId links the thread)",
  tag: 'comments',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  params: ZPostIdParams,
  response: z.object({ success: ZSuccess, comments: z.array(ZComment), count: z.number().int() }),
  errors: ['NOT_FOUND'],
});

// USER_BLOCKED: a block stands between the caller and the post's or the parent comment's author.
const commentErrors = ['NOT_FOUND', 'VALIDATION_ERROR', 'RATE_LIMIT_EXCEEDED', 'USER_BLOCKED'] as const;

const ZCommentResponse = z.object({ success: ZSuccess, comment: ZComment });

export const commentsCreate = defineEndpoint({
  id: 'comments.create',
  method: 'POST',
  path: '/api/posts/{id}/comments',
  summary: 'Comment on a post, or reply to one of its comments (parentCommentId); at least 10 characters',
  tag: 'comments',
  auth: 'user',
  requires: ['social'],
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
  requires: ['social'],
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
  requires: ['social'],
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
  requires: ['social'],
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
  requires: ['social'],
  params: ZPostIdParams,
  response: z.object({ success: ZSuccess, deleted: z.boolean(), id: z.string() }),
  errors: ['NOT_FOUND', 'FORBIDDEN'],
});

export const commentsLike = defineEndpoint({
  id: 'comments.like',
  method: 'POST',
  path: '/api/comments/{id}/like',
  summary: 'Like a comment',
  tag: 'reactions',
  auth: 'user',
  requires: ['social'],
  rateLimit: 'like',
  params: ZPostIdParams,
  response: ZLikeResponse,
  errors: ['NOT_FOUND', 'USER_BLOCKED'],
});

export const commentsUnlike = defineEndpoint({ ...commentsLike, id: 'comments.unlike', method: 'DELETE', summary: 'Unlike a comment', errors: ['NOT_FOUND'] });

export const commentsEndpoints = [
  commentsList,
  commentsCreate,
  postsReply,
  commentsReply,
  commentsUpdate,
  commentsDelete,
  commentsLike,
  commentsUnlike,
] as const;
