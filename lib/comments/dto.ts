/**
 * The API's comment shape (TComment: lib/contracts/comments.ts documents it as ZComment and checks
 * the two agree) and database rows to it. No I/O.
 */
import { toAuthorDto, type TAuthorRaw } from '@/lib/posts/dto';
import type { TUserSummary } from '@/lib/users/dto';

/** A comment or reply as every answer shows it (timestamps ISO 8601 UTC). */
export type TComment = {
  id: string;
  content: string;
  authorId: string;
  author: TUserSummary;
  postId: string;
  parentCommentId: string | null;
  createdAt: string;
  updatedAt: string;
  editedAt: string | null;
  deleted: boolean;
  reactions: { like: number };
  likesCount: number;
  repliesCount: number;
  userReacted: boolean;
  /**
   * Removed by a moderator (issue 35): the reason and when; null otherwise. A removed comment's
   * content is served only to moderators and administrators (empty for everyone else, its author
   * included); its place shows "Removed by a moderator: <reason>".
   */
  removed: { reason: string | null; at: string } | null;
};

const iso = (d: Date | string) => new Date(d).toISOString();

export type TCommentRowRaw = TAuthorRaw & {
  id: string;
  post_id: string;
  parent_comment_id: string | null;
  content: string;
  likes_count: number | string;
  replies_count: number | string;
  created_at: string | Date;
  updated_at: string | Date;
  edited_at: string | Date | null;
  deleted_at: string | Date | null;
  liked: boolean;
  removed_at: string | Date | null;
  removed_reason: string | null;
};

export const DELETED_COMMENT_TEXT = '[deleted]';

/** `showRemoved`: the reader moderates (a removed comment's text is served to them only). */
export function toCommentDto(r: TCommentRowRaw, showRemoved = false): TComment {
  const likes = Number(r.likes_count);
  const deleted = r.deleted_at !== null;
  const removed = !deleted && r.removed_at ? { reason: r.removed_reason ?? null, at: iso(r.removed_at) } : null;
  return {
    id: r.id,
    content: deleted ? DELETED_COMMENT_TEXT : removed && !showRemoved ? '' : r.content,
    authorId: r.author_id,
    author: toAuthorDto(r),
    postId: r.post_id,
    parentCommentId: r.parent_comment_id,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    editedAt: r.edited_at ? iso(r.edited_at) : null,
    deleted,
    reactions: { like: likes },
    likesCount: likes,
    repliesCount: Number(r.replies_count),
    userReacted: r.liked,
    removed,
  };
}
