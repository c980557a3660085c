/**
 * Deleting a comment: its author only. The row stays (its replies keep their thread) with its text
 * cleared, and the post's comment count drops in the same transaction, once.
 */
import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import { getDb, withTransaction } from '@/db/client';
import { comments, posts } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { requireOwnComment } from './shared';

export async function deleteComment(input: { caller: TCaller; commentId: string }) {
  const db = await getDb();
  const c = await requireOwnComment(db, input.commentId, input.caller.userId);
  const at = now();
  await withTransaction(async (tx) => {
    const done = await tx
      .update(comments)
      .set({ deletedAt: at, updatedAt: at, content: '' })
      .where(and(eq(comments.id, c.id), sql`${comments.deletedAt} is null`))
      .returning({ id: comments.id });
    if (done.length) await tx.update(posts).set({ commentsCount: sql`greatest(${posts.commentsCount} - 1, 0)` }).where(eq(posts.id, c.postId));
  });
  return { deleted: true, id: c.id };
}
