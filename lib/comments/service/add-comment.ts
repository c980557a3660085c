/**
 * Commenting: a comment on a post, a reply under a comment. Quality rule: at least 10 characters.
 * At most one reply per hour to the same NPC actor (checked under a per-pair advisory lock, so
 * parallel replies cannot both pass). Counters (post comments, parent replies) and the
 * notifications of the replied-to author and of mentioned users move in the same transaction as
 * the comment. The caller is the author.
 *
 * A comment reaches the post's author, and a reply also the parent comment's author: a block
 * between the caller and either of them, in either direction, refuses it with USER_BLOCKED,
 * checked inside the comment's transaction (lib/moderation/reach.ts). Mentioned users in a block
 * with the caller, or who muted the caller, get no notification (lib/notifications notify).
 */
import 'server-only';
import { eq, inArray, sql } from 'drizzle-orm';
import { getDb, rowsOf, withTransaction } from '@/db/client';
import { comments, posts, users } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { assertCanReach } from '@/lib/moderation/reach';
import { notify } from '@/lib/notifications/service';
import { parseMentions } from '@/lib/posts/text';
import { findComment } from '../queries';
import { checkCommentContent } from './shared';

const NPC_REPLY_WINDOW_MS = 60 * 60 * 1000;

/** Adds a comment to a post, under `parentCommentId` when given. */
export async function addComment(input: { caller: TCaller; postId: string; content: string; parentCommentId?: string | null }) {
  const { caller } = input;
  const content = checkCommentContent(input.content);
  const db = await getDb();
  const [post] = await db
    .select({ id: posts.id, authorId: posts.authorId, authorIsActor: users.isActor })
    .from(posts)
    .innerJoin(users, eq(users.id, posts.authorId))
    .where(eq(posts.id, input.postId));
  if (!post) throw new AppError('NOT_FOUND', 'Post not found', { postId: input.postId });
  let replyTo = { userId: post.authorId, isActor: post.authorIsActor };
  if (input.parentCommentId) {
    const [parent] = await db
      .select({ id: comments.id, postId: comments.postId, authorId: comments.authorId, isActor: users.isActor, deletedAt: comments.deletedAt })
      .from(comments)
      .innerJoin(users, eq(users.id, comments.authorId))
      .where(eq(comments.id, input.parentCommentId));
    if (!parent || parent.postId !== input.postId) throw new AppError('NOT_FOUND', 'Parent comment not found on this post', { parentCommentId: input.parentCommentId });
    replyTo = { userId: parent.authorId, isActor: parent.isActor };
  }
  const at = now();
  const id = await withTransaction(async (tx) => {
    await assertCanReach(tx, caller.userId, post.authorId, 'comment on this post');
    if (replyTo.userId !== post.authorId) await assertCanReach(tx, caller.userId, replyTo.userId, 'reply to this comment');
    if (replyTo.isActor && replyTo.userId !== caller.userId) {
      // One reply per hour to the same NPC: serialise this pair, then look at the last hour.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`npc-reply:${caller.userId}:${replyTo.userId}`}))`);
      const since = new Date(at.getTime() - NPC_REPLY_WINDOW_MS).toISOString();
      const [recent] = rowsOf<{ created_at: string | Date }>(
        await tx.execute(sql`
          select created_at from ${comments} where author_id = ${caller.userId} and reply_to_user_id = ${replyTo.userId}
            and created_at > ${since}::timestamptz order by created_at desc limit 1`),
      );
      if (recent) {
        const retryAt = new Date(new Date(recent.created_at).getTime() + NPC_REPLY_WINDOW_MS);
        throw new AppError('RATE_LIMIT_EXCEEDED', 'You can reply to the same NPC at most once per hour', { retryAt: retryAt.toISOString() });
      }
    }
    const [c] = await tx
      .insert(comments)
      .values({
        postId: input.postId,
        authorId: caller.userId,
        parentCommentId: input.parentCommentId ?? null,
        replyToUserId: replyTo.userId,
        content,
        createdAt: at,
        updatedAt: at,
      })
      .returning({ id: comments.id });
    await tx.update(posts).set({ commentsCount: sql`${posts.commentsCount} + 1` }).where(eq(posts.id, input.postId));
    if (input.parentCommentId) {
      await tx.update(comments).set({ repliesCount: sql`${comments.repliesCount} + 1` }).where(eq(comments.id, input.parentCommentId));
    }
    const mentions = parseMentions(content).filter((u) => u !== caller.username.toLowerCase());
    const mentioned = mentions.length
      ? await tx.select({ id: users.id }).from(users).where(inArray(sql`lower(${users.username})`, mentions))
      : [];
    await notify(tx, [
      {
        userId: replyTo.userId,
        type: input.parentCommentId ? 'reply' : 'comment',
        actorId: caller.userId,
        postId: input.postId,
        commentId: c!.id,
        title: input.parentCommentId ? 'New reply' : 'New comment',
        message: `@${caller.username} ${input.parentCommentId ? 'replied' : 'commented'}: ${content.slice(0, 120)}`,
      },
      ...mentioned
        .filter((u) => u.id !== replyTo.userId)
        .map((u) => ({
          userId: u.id,
          type: 'mention' as const,
          actorId: caller.userId,
          postId: input.postId,
          commentId: c!.id,
          title: 'You were mentioned',
          message: `@${caller.username} mentioned you: ${content.slice(0, 120)}`,
        })),
    ]);
    return c!.id;
  });
  return { comment: (await findComment(db, id, caller.userId))! };
}

/** Replies to a comment (its post is the comment's post). */
export async function replyToComment(input: { caller: TCaller; commentId: string; content: string }) {
  const db = await getDb();
  const [parent] = await db.select({ postId: comments.postId }).from(comments).where(eq(comments.id, input.commentId));
  if (!parent) throw new AppError('NOT_FOUND', 'Comment not found', { commentId: input.commentId });
  return addComment({ caller: input.caller, postId: parent.postId, content: input.content, parentCommentId: input.commentId });
}
