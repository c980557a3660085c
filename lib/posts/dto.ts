/** Database rows to the API's post shape, and the author columns posts and comments share. No I/O. */
import type { TPost } from '@/lib/contracts/posts';
import { toUserSummary } from '@/lib/users/dto';

const iso = (d: Date | string) => new Date(d).toISOString();

/** A post row as the hydrating query returns it (snake_case, raw SQL). */
export type TPostRowRaw = TAuthorRaw & {
  id: string;
  type: 'post' | 'article';
  content: string;
  image_url: string | null;
  related_question_id: string | null;
  likes_count: number | string;
  comments_count: number | string;
  shares_count: number | string;
  created_at: string | Date;
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

export const toAuthorDto = (r: TAuthorRaw) =>
  toUserSummary({
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
          user: toUserSummary(
            { id: repost.sharer_id, username: repost.sharer_username, displayName: repost.sharer_display_name, profileImageUrl: repost.sharer_image },
            { nameOnly: true },
          ),
          quote: repost.quote,
          quoteComment: repost.quote,
          createdAt: iso(repost.at),
        }
      : null,
  };
};
