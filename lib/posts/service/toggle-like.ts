/**
 * Likes of posts and of comments (lib/comments/service/like-comment.ts uses this too). Each toggle
 * is one statement: the insert (a no-op when it exists, thanks to the unique key) or the delete,
 * and the counter moved by exactly the rows it changed. So ten parallel likes make one like, and
 * counts never drift. The owner's notification follows in the same transaction, only for a like
 * that happened.
 *
 * A like reaches the owner, so a block between the two (either way, lib/moderation/visibility
 * blockBetween) refuses it with USER_BLOCKED: the same statement reads the block, skips the insert
 * when there is one and says so, so no separate check can race the like. Unliking stays allowed
 * (it only takes something back).
 */
import 'server-only';
import { eq, sql } from 'drizzle-orm';
import { getDb, rowsOf, withTransaction } from '@/db/client';
import { commentLikes, comments, postLikes, posts } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { blockBetween } from '@/lib/moderation/visibility';
import { notify } from '@/lib/notifications/service';

type TToggle = { changed: number; count: number | null; owner: string | null };

const likeStatement = (target: 'post' | 'comment', id: string, userId: string, on: boolean, at: Date) => {
  const likes = target === 'post' ? postLikes : commentLikes;
  const table = target === 'post' ? posts : comments;
  const key = sql.raw(target === 'post' ? 'post_id' : 'comment_id');
  const change = on
    ? sql`insert into ${likes} (${key}, user_id, created_at)
          select ${id}, ${userId}, ${at.toISOString()}::timestamptz from target where not target.blocked
          on conflict do nothing returning 1`
    : sql`delete from ${likes} where ${key} = ${id} and user_id = ${userId} returning 1`;
  return sql`
    with target as (
      select t.author_id, ${blockBetween(sql`t.author_id`, sql`${userId}`)} as blocked from ${table} t where t.id = ${id}
    ),
    changed as (${change}),
    counted as (
      update ${table} set likes_count = likes_count ${sql.raw(on ? '+' : '-')} (select count(*) from changed)::int
      where id = ${id} returning likes_count, author_id
    )
    select (select count(*) from changed) as changed,
      (select likes_count from counted) as count,
      coalesce((select author_id from counted), (select author_id from target)) as owner,
      coalesce((select blocked from target), false) as blocked`;
};

/** Likes (`on`) or unlikes a post or a comment as the caller; 404 when it does not exist. */
export async function toggleLike(target: 'post' | 'comment', id: string, caller: TCaller, on: boolean) {
  const at = now();
  const result = await withTransaction(async (tx) => {
    const [r] = rowsOf<{ changed: number | string; count: number | string | null; owner: string | null; blocked: boolean }>(
      await tx.execute(likeStatement(target, id, caller.userId, on, at)),
    );
    const t: TToggle = { changed: Number(r?.changed ?? 0), count: r?.count === null || r?.count === undefined ? null : Number(r.count), owner: r?.owner ?? null };
    if (t.owner === null) throw new AppError('NOT_FOUND', `${target === 'post' ? 'Post' : 'Comment'} not found`, { id });
    // The insert was skipped; throwing rolls back the counter's no-op update too.
    if (on && r?.blocked === true) {
      throw new AppError('USER_BLOCKED', `You cannot like this ${target}: one of you has blocked the other`, { userId: t.owner });
    }
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
          actorId: caller.userId,
          postId,
          commentId: target === 'comment' ? id : null,
          title: 'New like',
          message: `@${caller.username} liked your ${target}`,
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
}
