/** Database rows to the API's comment shape. No I/O. */
import type { TComment } from '@/lib/contracts/comments';
import { toAuthorDto, type TAuthorRaw } from '@/lib/posts/dto';

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
};

export const DELETED_COMMENT_TEXT = '[deleted]';

export const toCommentDto = (r: TCommentRowRaw): TComment => {
  const likes = Number(r.likes_count);
  const deleted = r.deleted_at !== null;
  return {
    id: r.id,
    content: deleted ? DELETED_COMMENT_TEXT : r.content,
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
  };
};
