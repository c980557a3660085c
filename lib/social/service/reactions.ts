/**
 * Likes and shares. Each toggle is one statement: the insert (a no-op when it exists, thanks to
 * the unique key) or the delete, and the counter moved by exactly the rows it changed. So ten
 * parallel likes make one like, and counts never drift. Notifications follow in the same
 * transaction, only for a change that happened.
 */
import { eq, sql } from 'drizzle-orm';
import { getDb, rowsOf, withTransaction } from '@/db/client';
import { commentLikes, comments, postLikes, posts, shares, users } from '@/db/schema';
import { now } from '@/lib/clock/clock';
import { emitEvent } from '@/lib/events/outbox';
import { AppError } from '@/lib/errors/app-error';
import { notify } from '@/lib/notifications/service';

type TToggle = { changed: number; count: number | null; owner: string | null };

const likeStatement = (target: 'post' | 'comment', id: string, userId: string, on: boolean, at: Date) => {
  const likes = target === 'post' ? postLikes : commentLikes;
  const table = target === 'post' ? posts : comments;
  const key = sql.raw(target === 'post' ? 'post_id' : 'comment_id');
  const change = on
    ? sql`insert into ${likes} (${key}, user_id, created_at)
          select ${id}, ${userId}, ${at.toISOString()}::timestamptz where exists (select 1 from ${table} where id = ${id})
          on conflict do nothing returning 1`
    : sql`delete from ${likes} where ${key} = ${id} and user_id = ${userId} returning 1`;
  return sql`
    with changed as (${change}),
    counted as (
      update ${table} set likes_count = likes_count ${sql.raw(on ? '+' : '-')} (select count(*) from changed)::int
      where id = ${id} returning likes_count, author_id
    )
    select (select count(*) from changed) as changed,
      (select likes_count from counted) as count,
      coalesce((select author_id from counted), (select author_id from ${table} where id = ${id})) as owner`;
};

const toggleLike = async (target: 'post' | 'comment', id: string, user: { id: string; username: string }, on: boolean) => {
  const at = now();
  const result = await withTransaction(async (tx) => {
    const [r] = rowsOf<{ changed: number | string; count: number | string | null; owner: string | null }>(
      await tx.execute(likeStatement(target, id, user.id, on, at)),
    );
    const t: TToggle = { changed: Number(r?.changed ?? 0), count: r?.count === null || r?.count === undefined ? null : Number(r.count), owner: r?.owner ?? null };
    if (t.owner === null) throw new AppError('NOT_FOUND', `${target === 'post' ? 'Post' : 'Comment'} not found`, { id });
    if (on && t.changed > 0) {
      let postId: string | null = id;
      if (target === 'comment') {
        const [c] = await tx.select({ postId: comments.postId }).from(comments).where(eq(comments.id, id));
        postId = c?.postId ?? null;
      }
      await notify(tx, [
        {
          userId: t.owner,
          type: 'reaction',
          actorId: user.id,
          postId,
          commentId: target === 'comment' ? id : null,
          title: 'New like',
          message: `@${user.username} liked your ${target}`,
        },
      ]);
    }
    return t;
  });
  let count = result.count;
  if (count === null) {
    const table = target === 'post' ? posts : comments;
    const [row] = await (await getDb()).select({ n: table.likesCount }).from(table).where(eq(table.id, id));
    count = row?.n ?? 0;
  }
  return { liked: on, reactionCount: count, likesCount: count };
};

export const likePost = (postId: string, user: { id: string; username: string }) => toggleLike('post', postId, user, true);
export const unlikePost = (postId: string, user: { id: string; username: string }) => toggleLike('post', postId, user, false);
export const likeComment = (commentId: string, user: { id: string; username: string }) => toggleLike('comment', commentId, user, true);
export const unlikeComment = (commentId: string, user: { id: string; username: string }) => toggleLike('comment', commentId, user, false);

/** Shares a post (once per user; sharing again answers the existing share). */
export const sharePost = async (postId: string, user: { id: string; username: string }, quote: string | null) => {
  const at = now();
  const out = await withTransaction(async (tx) => {
    const [post] = await tx.select({ id: posts.id, authorId: posts.authorId, content: posts.content }).from(posts).where(eq(posts.id, postId));
    if (!post) throw new AppError('NOT_FOUND', 'Post not found', { postId });
    const inserted = await tx
      .insert(shares)
      .values({ postId, userId: user.id, quote: quote || null, createdAt: at })
      .onConflictDoNothing()
      .returning();
    let share = inserted[0];
    let sharesCount: number;
    if (share) {
      const [p] = await tx
        .update(posts)
        .set({ sharesCount: sql`${posts.sharesCount} + 1` })
        .where(eq(posts.id, postId))
        .returning({ n: posts.sharesCount });
      sharesCount = p!.n;
      await notify(tx, [
        { userId: post.authorId, type: 'share', actorId: user.id, postId, title: 'Your post was shared', message: `@${user.username} shared your post` },
      ]);
      // A repost appears in feeds as the post, shared by this user.
      await emitEvent(tx, 'feed', {
        type: 'feed_update',
        data: {
          post: { id: postId, content: post.content, authorId: user.id, timestamp: at.toISOString(), repostId: share!.id, originalAuthorId: post.authorId, quote: share!.quote },
        },
      });
    } else {
      [share] = await tx.select().from(shares).where(sql`${shares.postId} = ${postId} and ${shares.userId} = ${user.id}`);
      const [p] = await tx.select({ n: posts.sharesCount }).from(posts).where(eq(posts.id, postId));
      sharesCount = p!.n;
    }
    return { share: share!, sharesCount, isNew: inserted.length > 0 };
  });
  const s = out.share;
  return {
    share: { id: s.id, userId: s.userId, postId: s.postId, quote: s.quote, quoteComment: s.quote, createdAt: s.createdAt.toISOString() },
    shared: true,
    sharesCount: out.sharesCount,
  };
};

export const unsharePost = async (postId: string, userId: string) => {
  const [r] = rowsOf<{ n: number | string | null; exists: boolean }>(
    await (await getDb()).execute(sql`
      with gone as (delete from ${shares} where post_id = ${postId} and user_id = ${userId} returning 1),
      counted as (update ${posts} set shares_count = shares_count - (select count(*) from gone)::int where id = ${postId} returning shares_count)
      select (select shares_count from counted) as n, exists(select 1 from ${posts} where id = ${postId}) as exists`),
  );
  if (!r?.exists) throw new AppError('NOT_FOUND', 'Post not found', { postId });
  return { shared: false, sharesCount: Number(r.n ?? 0) };
};

/** Who liked and shared a post, in the full and the compact form. */
export const getInteractions = async (postId: string, viewerId: string | null) => {
  const db = await getDb();
  const [post] = await db.select().from(posts).where(eq(posts.id, postId));
  if (!post) throw new AppError('NOT_FOUND', 'Post not found', { postId });
  const likeRows = await db
    .select({ userId: postLikes.userId, username: users.username, createdAt: postLikes.createdAt })
    .from(postLikes)
    .innerJoin(users, eq(users.id, postLikes.userId))
    .where(eq(postLikes.postId, postId))
    .orderBy(sql`${postLikes.createdAt} desc`)
    .limit(200);
  const shareRows = await db
    .select({ userId: shares.userId, username: users.username, createdAt: shares.createdAt })
    .from(shares)
    .innerJoin(users, eq(users.id, shares.userId))
    .where(eq(shares.postId, postId))
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
    userLiked: !!viewerId && likeRows.some((r) => r.userId === viewerId),
    userShared: !!viewerId && shareRows.some((r) => r.userId === viewerId),
  };
};
