/** Database rows to the API's post, comment and notification shapes. No I/O. */
import type { TComment } from '@/lib/contracts/comments';
import type { TNotification } from '@/lib/contracts/notifications';
import type { TPost } from '@/lib/contracts/posts';

const iso = (d: Date | string) => new Date(d).toISOString();

/** A post row as the hydrating query returns it (snake_case, raw SQL). */
export type TPostRowRaw = {
  id: string;
  type: 'post' | 'article';
  content: string;
  image_url: string | null;
  related_question_id: string | null;
  likes_count: number | string;
  comments_count: number | string;
  shares_count: number | string;
  created_at: string | Date;
  author_id: string;
  username: string;
  display_name: string;
  profile_image_url: string | null;
  reputation_points: number | string;
  is_actor: boolean;
  tags: string[] | string | null;
  liked: boolean;
  shared: boolean;
};

export type TRepostRaw = {
  share_id: string;
  sharer_id: string;
  sharer_username: string;
  sharer_display_name: string;
  sharer_image: string | null;
  quote: string | null;
  at: string | Date;
};

/** The author columns every post and comment query selects. */
export type TAuthorRaw = {
  author_id: string;
  username: string;
  display_name: string;
  profile_image_url: string | null;
  reputation_points: number | string;
  is_actor: boolean;
};

export const toAuthorDto = (r: TAuthorRaw) => ({
  id: r.author_id,
  username: r.username,
  displayName: r.display_name,
  profileImageUrl: r.profile_image_url,
  reputationPoints: Number(r.reputation_points),
  isActor: r.is_actor,
});

/** PGlite and postgres.js both return text[] as arrays; a literal '{a,b}' is parsed just in case. */
const tagsOf = (t: TPostRowRaw['tags']): string[] => {
  if (!t) return [];
  if (Array.isArray(t)) return t;
  return t.replace(/^\{|\}$/g, '').split(',').filter(Boolean);
};

export const toPostDto = (r: TPostRowRaw, repost?: TRepostRaw | null): TPost => {
  const likes = Number(r.likes_count);
  return {
    id: r.id,
    type: r.type,
    content: r.content,
    authorId: r.author_id,
    author: toAuthorDto(r),
    timestamp: iso(r.created_at),
    createdAt: iso(r.created_at),
    imageUrl: r.image_url,
    relatedQuestion: r.related_question_id,
    tags: tagsOf(r.tags),
    reactions: { like: likes, total: likes },
    likesCount: likes,
    reactionCount: likes,
    commentsCount: Number(r.comments_count),
    sharesCount: Number(r.shares_count),
    userReacted: r.liked,
    userLiked: r.liked,
    userShared: r.shared,
    repost: repost
      ? {
          id: repost.share_id,
          userId: repost.sharer_id,
          user: { id: repost.sharer_id, username: repost.sharer_username, displayName: repost.sharer_display_name, profileImageUrl: repost.sharer_image },
          quote: repost.quote,
          quoteComment: repost.quote,
          createdAt: iso(repost.at),
        }
      : null,
  };
};

export type TCommentRowRaw = {
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
  author_id: string;
  username: string;
  display_name: string;
  profile_image_url: string | null;
  reputation_points: number | string;
  is_actor: boolean;
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

export type TNotificationRowRaw = {
  id: string;
  type: TNotification['type'];
  actor_id: string | null;
  actor_username: string | null;
  actor_display_name: string | null;
  actor_image: string | null;
  post_id: string | null;
  comment_id: string | null;
  title: string;
  message: string;
  read: boolean;
  created_at: string | Date;
};

export const toNotificationDto = (r: TNotificationRowRaw): TNotification => ({
  id: r.id,
  type: r.type,
  actorId: r.actor_id,
  actor: r.actor_id && r.actor_username ? { username: r.actor_username, displayName: r.actor_display_name ?? '', profileImageUrl: r.actor_image } : null,
  postId: r.post_id,
  commentId: r.comment_id,
  title: r.title,
  message: r.message,
  read: r.read,
  createdAt: iso(r.created_at),
});
