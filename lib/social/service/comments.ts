/**
 * Threaded comments. Quality rule: at least 10 characters. At most one reply per hour to the same
 * NPC actor (checked under a per-pair advisory lock, so parallel replies cannot both pass).
 * Counters (post comments, parent replies) move in the same transaction as the comment. A deleted
 * comment keeps its row, so its replies keep their thread; its text is no longer shown.
 */
import { and, eq, sql } from 'drizzle-orm';
import { getDb, rowsOf, withTransaction, type DbOrTx } from '@/db/client';
import { commentLikes, comments, posts, users } from '@/db/schema';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { notify } from '@/lib/notifications/service';
import { inArray } from 'drizzle-orm';
import { toCommentDto, type TCommentRowRaw } from '../dto';
import { COMMENT_MAX_CHARS, COMMENT_MIN_CHARS, parseMentions, visibleLength } from '@/lib/posts/text';

const NPC_REPLY_WINDOW_MS = 60 * 60 * 1000;

const checkContent = (raw: string) => {
  const content = raw.trim();
  const n = visibleLength(content);
  if (n < COMMENT_MIN_CHARS) {
    throw new AppError('VALIDATION_ERROR', `A comment needs at least ${COMMENT_MIN_CHARS} characters`, { length: n, min: COMMENT_MIN_CHARS });
  }
  if (n > COMMENT_MAX_CHARS) throw new AppError('VALIDATION_ERROR', `A comment is at most ${COMMENT_MAX_CHARS} characters`, { length: n });
  return content;
};

const commentQuery = (where: ReturnType<typeof sql>, viewerId: string | null) => sql`
  select c.id, c.post_id, c.parent_comment_id, c.content, c.likes_count, c.replies_count, c.created_at, c.updated_at,
    c.edited_at, c.deleted_at, c.author_id, u.username, u.display_name, u.profile_image_url, u.reputation_points, u.is_actor,
    exists(select 1 from ${commentLikes} l where l.comment_id = c.id and l.user_id = ${viewerId ?? ''}) as liked
  from ${comments} c join ${users} u on u.id = c.author_id
  where ${where}
  order by c.created_at asc, c.id asc`;

const loadComment = async (db: DbOrTx, id: string, viewerId: string | null) => {
  const [row] = rowsOf<TCommentRowRaw>(await db.execute(commentQuery(sql`c.id = ${id}`, viewerId)));
  return row ? toCommentDto(row) : null;
};

export const listComments = async (postId: string, viewerId: string | null) => {
  const db = await getDb();
  const [p] = await db.select({ id: posts.id }).from(posts).where(eq(posts.id, postId));
  if (!p) throw new AppError('NOT_FOUND', 'Post not found', { postId });
  const rows = rowsOf<TCommentRowRaw>(await db.execute(commentQuery(sql`c.post_id = ${postId}`, viewerId)));
  return { comments: rows.map(toCommentDto), count: rows.length };
};

/** Adds a comment to a post, under `parentCommentId` when given. */
export const addComment = async (input: { postId: string; authorId: string; authorUsername: string; content: string; parentCommentId?: string | null }) => {
  const content = checkContent(input.content);
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
    if (replyTo.isActor && replyTo.userId !== input.authorId) {
      // One reply per hour to the same NPC: serialise this pair, then look at the last hour.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`npc-reply:${input.authorId}:${replyTo.userId}`}))`);
      const since = new Date(at.getTime() - NPC_REPLY_WINDOW_MS).toISOString();
      const [recent] = rowsOf<{ created_at: string | Date }>(
        await tx.execute(sql`
          select created_at from ${comments} where author_id = ${input.authorId} and reply_to_user_id = ${replyTo.userId}
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
        authorId: input.authorId,
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
    const mentions = parseMentions(content).filter((u) => u !== input.authorUsername.toLowerCase());
    const mentioned = mentions.length
      ? await tx.select({ id: users.id }).from(users).where(inArray(sql`lower(${users.username})`, mentions))
      : [];
    await notify(tx, [
      {
        userId: replyTo.userId,
        type: input.parentCommentId ? 'reply' : 'comment',
        actorId: input.authorId,
        postId: input.postId,
        commentId: c!.id,
        title: input.parentCommentId ? 'New reply' : 'New comment',
        message: `@${input.authorUsername} ${input.parentCommentId ? 'replied' : 'commented'}: ${content.slice(0, 120)}`,
      },
      ...mentioned
        .filter((u) => u.id !== replyTo.userId)
        .map((u) => ({
          userId: u.id,
          type: 'mention' as const,
          actorId: input.authorId,
          postId: input.postId,
          commentId: c!.id,
          title: 'You were mentioned',
          message: `@${input.authorUsername} mentioned you: ${content.slice(0, 120)}`,
        })),
    ]);
    return c!.id;
  });
  return { comment: (await loadComment(db, id, input.authorId))! };
};

/** Replies to a comment (its post is the comment's post). */
export const replyToComment = async (input: { commentId: string; authorId: string; authorUsername: string; content: string }) => {
  const db = await getDb();
  const [parent] = await db.select({ postId: comments.postId }).from(comments).where(eq(comments.id, input.commentId));
  if (!parent) throw new AppError('NOT_FOUND', 'Comment not found', { commentId: input.commentId });
  return addComment({ ...input, postId: parent.postId, parentCommentId: input.commentId });
};

const requireOwnComment = async (db: DbOrTx, id: string, userId: string) => {
  const [c] = await db.select().from(comments).where(eq(comments.id, id));
  if (!c || c.deletedAt) throw new AppError('NOT_FOUND', 'Comment not found', { commentId: id });
  if (c.authorId !== userId) throw new AppError('FORBIDDEN', 'Only its author may change this comment');
  return c;
};

export const editComment = async (input: { commentId: string; userId: string; content: string }) => {
  const content = checkContent(input.content);
  const db = await getDb();
  await requireOwnComment(db, input.commentId, input.userId);
  const at = now();
  await db.update(comments).set({ content, editedAt: at, updatedAt: at }).where(and(eq(comments.id, input.commentId), sql`${comments.deletedAt} is null`));
  return { comment: (await loadComment(db, input.commentId, input.userId))! };
};

export const deleteComment = async (input: { commentId: string; userId: string }) => {
  const db = await getDb();
  const c = await requireOwnComment(db, input.commentId, input.userId);
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
};
