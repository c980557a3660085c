/**
 * Who liked and shared a post, in the full and the compact form, with the caller's own flags.
 * What the caller may not see stays out (lib/moderation/visibility): the post itself answers 404
 * when its author is hidden from the caller, likers in a block with the caller are left out
 * (`canSeeUser`: a like is a person's activity, and mutes hide content, not people), and shares
 * pass `canSee` like any repost (block, the caller's mute, a banned sharer). The totals are the
 * post's counters, which count everyone: a number names nobody.
 */
import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { postLikes, posts, shares, users } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { AppError } from '@/lib/errors/app-error';
import { canSee, canSeeUser } from '@/lib/moderation/visibility';

export async function getInteractions(input: { caller: TCaller | null; postId: string }) {
  const { postId } = input;
  const callerId = input.caller?.userId ?? null;
  const db = await getDb();
  const [post] = await db
    .select()
    .from(posts)
    .where(and(eq(posts.id, postId), canSee(sql`${posts.authorId}`, callerId)));
  if (!post) throw new AppError('NOT_FOUND', 'Post not found', { postId });
  const likeRows = await db
    .select({ userId: postLikes.userId, username: users.username, createdAt: postLikes.createdAt })
    .from(postLikes)
    .innerJoin(users, eq(users.id, postLikes.userId))
    .where(and(eq(postLikes.postId, postId), canSeeUser(sql`${postLikes.userId}`, callerId)))
    .orderBy(sql`${postLikes.createdAt} desc`)
    .limit(200);
  const shareRows = await db
    .select({ userId: shares.userId, username: users.username, createdAt: shares.createdAt })
    .from(shares)
    .innerJoin(users, eq(users.id, shares.userId))
    .where(and(eq(shares.postId, postId), canSee(sql`${shares.userId}`, callerId)))
    .orderBy(sql`${shares.createdAt} desc`)
    .limit(200);
  return {
    reactions: likeRows.map((r) => ({ userId: r.userId, type: 'like' as const, username: r.username, createdAt: r.createdAt.toISOString() })),
    shares: shareRows.map((r) => ({ userId: r.userId, username: r.username, createdAt: r.createdAt.toISOString() })),
    totalReactions: post.likesCount,
    totalShares: post.sharesCount,
    likes: post.likesCount,
    comments: post.commentsCount,
    sharesCount: post.sharesCount,
    userLiked: !!callerId && likeRows.some((r) => r.userId === callerId),
    userShared: !!callerId && shareRows.some((r) => r.userId === callerId),
  };
}
