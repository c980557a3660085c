/**
 * Sharing (reposting) a post as the caller, once per user: sharing again answers the existing
 * share. The counter, the author's notification and the feed event move in the share's
 * transaction; unsharing is one statement (the delete and the counter moved by what it removed).
 * A share reaches the post's author: a block between the two, either way, refuses it with
 * USER_BLOCKED, checked inside the share's transaction (lib/moderation/reach.ts).
 */
import 'server-only';
import { eq, sql } from 'drizzle-orm';
import { getDb, rowsOf, withTransaction } from '@/db/client';
import { posts, shares } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { emitEvent } from '@/lib/events/outbox';
import { AppError } from '@/lib/errors/app-error';
import { assertCanReach } from '@/lib/moderation/reach';
import { notify } from '@/lib/notifications/service';

export async function sharePost(input: { caller: TCaller; postId: string; quote: string | null }) {
  const { caller, postId, quote } = input;
  const at = now();
  const out = await withTransaction(async (tx) => {
    const [post] = await tx.select({ id: posts.id, authorId: posts.authorId, content: posts.content }).from(posts).where(eq(posts.id, postId));
    if (!post) throw new AppError('NOT_FOUND', 'Post not found', { postId });
    await assertCanReach(tx, caller.userId, post.authorId, 'share this post');
    const inserted = await tx
      .insert(shares)
      .values({ postId, userId: caller.userId, quote: quote || null, createdAt: at })
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
        { userId: post.authorId, type: 'share', actorId: caller.userId, postId, title: 'Your post was shared', message: `@${caller.username} shared your post` },
      ]);
      // A repost appears in feeds as the post, shared by this user.
      await emitEvent(tx, 'feed', {
        type: 'feed_update',
        data: {
          post: { id: postId, content: post.content, authorId: caller.userId, timestamp: at.toISOString(), repostId: share!.id, originalAuthorId: post.authorId, quote: share!.quote },
        },
      });
    } else {
      [share] = await tx.select().from(shares).where(sql`${shares.postId} = ${postId} and ${shares.userId} = ${caller.userId}`);
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
}

export async function unsharePost(input: { caller: TCaller; postId: string }) {
  const { caller, postId } = input;
  const [r] = rowsOf<{ n: number | string | null; exists: boolean }>(
    await (await getDb()).execute(sql`
      with gone as (delete from ${shares} where post_id = ${postId} and user_id = ${caller.userId} returning 1),
      counted as (update ${posts} set shares_count = shares_count - (select count(*) from gone)::int where id = ${postId} returning shares_count)
      select (select shares_count from counted) as n, exists(select 1 from ${posts} where id = ${postId}) as exists`),
  );
  if (!r?.exists) throw new AppError('NOT_FOUND', 'Post not found', { postId });
  return { shared: false, sharesCount: Number(r.n ?? 0) };
}
