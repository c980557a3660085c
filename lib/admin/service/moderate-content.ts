/**
 * Moderation that fits the offence (issue 35): remove or restore one post or comment with a reason,
 * and warn a user. Moderators and administrators (the `moderate` permission). Each action runs in
 * ONE transaction: the target row locked (SELECT … FOR UPDATE), its removed_* columns set or
 * cleared (409 CONFLICT when it is already removed, or not removed), a moderation_actions row
 * (the audit trail, lib/admin/service/moderation-actions.ts), and a 'moderation' notification to
 * the author naming the reason. The notification has no actor: the moderator stays anonymous, and
 * a block between the author and the moderator does not swallow it.
 */
import 'server-only';
import { eq } from 'drizzle-orm';
import { withTransaction, type Tx } from '@/db/client';
import { comments, moderationActions, posts, reports, users } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { notify } from '@/lib/notifications/service';

type TContentInput = { caller: TCaller; id: string; reason?: string; reportId?: string };

/** The report an action answers must exist (a clear 404, not a foreign-key failure). */
const checkReport = async (tx: Tx, reportId: string | undefined) => {
  if (!reportId) return null;
  const [r] = await tx.select({ id: reports.id }).from(reports).where(eq(reports.id, reportId));
  if (!r) throw new AppError('REPORT_NOT_FOUND', 'Report not found', { reportId });
  return r.id;
};

const snippet = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}…` : text);

/** POST /api/admin/posts/{id}/remove and /restore. */
export async function moderatePost(input: TContentInput & { action: 'remove' | 'restore' }) {
  const { caller, action } = input;
  const reason = input.reason?.trim() || null;
  return withTransaction(async (tx) => {
    const [p] = await tx.select().from(posts).where(eq(posts.id, input.id)).for('update');
    if (!p) throw new AppError('POST_NOT_FOUND', 'Post not found', { postId: input.id });
    if (action === 'remove' && p.removedAt) throw new AppError('CONFLICT', 'This post is already removed', { postId: p.id });
    if (action === 'restore' && !p.removedAt) throw new AppError('CONFLICT', 'This post is not removed', { postId: p.id });
    const reportId = await checkReport(tx, input.reportId);
    const at = now();
    await tx
      .update(posts)
      .set(action === 'remove' ? { removedAt: at, removedById: caller.userId, removedReason: reason } : { removedAt: null, removedById: null, removedReason: null })
      .where(eq(posts.id, p.id));
    await tx.insert(moderationActions).values({
      actorId: caller.userId,
      action: action === 'remove' ? 'remove_post' : 'restore_post',
      targetUserId: p.authorId,
      postId: p.id,
      reportId,
      reason,
      createdAt: at,
    });
    await notify(tx, [
      {
        userId: p.authorId,
        type: 'system',
        kind: 'moderation',
        postId: p.id,
        title: action === 'remove' ? 'A moderator removed your post' : 'Your post was restored',
        message:
          action === 'remove'
            ? `Your post "${snippet(p.content)}" was removed. Reason: ${reason ?? 'no reason given'}.`
            : `Your post "${snippet(p.content)}" is visible again.`,
        link: `/posts/${p.id}`,
      },
    ]);
    const removed = action === 'remove' ? { reason, at: at.toISOString() } : null;
    return { message: action === 'remove' ? 'Post removed' : 'Post restored', post: { id: p.id, authorId: p.authorId, removed } };
  });
}

/** POST /api/admin/comments/{id}/remove and /restore. */
export async function moderateComment(input: TContentInput & { action: 'remove' | 'restore' }) {
  const { caller, action } = input;
  const reason = input.reason?.trim() || null;
  return withTransaction(async (tx) => {
    const [c] = await tx.select().from(comments).where(eq(comments.id, input.id)).for('update');
    if (!c) throw new AppError('NOT_FOUND', 'Comment not found', { commentId: input.id });
    if (action === 'remove' && c.removedAt) throw new AppError('CONFLICT', 'This comment is already removed', { commentId: c.id });
    if (action === 'restore' && !c.removedAt) throw new AppError('CONFLICT', 'This comment is not removed', { commentId: c.id });
    const reportId = await checkReport(tx, input.reportId);
    const at = now();
    await tx
      .update(comments)
      .set(action === 'remove' ? { removedAt: at, removedById: caller.userId, removedReason: reason } : { removedAt: null, removedById: null, removedReason: null })
      .where(eq(comments.id, c.id));
    await tx.insert(moderationActions).values({
      actorId: caller.userId,
      action: action === 'remove' ? 'remove_comment' : 'restore_comment',
      targetUserId: c.authorId,
      postId: c.postId,
      commentId: c.id,
      reportId,
      reason,
      createdAt: at,
    });
    await notify(tx, [
      {
        userId: c.authorId,
        type: 'system',
        kind: 'moderation',
        postId: c.postId,
        commentId: c.id,
        title: action === 'remove' ? 'A moderator removed your comment' : 'Your comment was restored',
        message:
          action === 'remove'
            ? `Your comment "${snippet(c.content)}" was removed. Reason: ${reason ?? 'no reason given'}.`
            : `Your comment "${snippet(c.content)}" is visible again.`,
        link: `/posts/${c.postId}`,
      },
    ]);
    const removed = action === 'remove' ? { reason, at: at.toISOString() } : null;
    return { message: action === 'remove' ? 'Comment removed' : 'Comment restored', comment: { id: c.id, postId: c.postId, authorId: c.authorId, removed } };
  });
}

/** POST /api/admin/users/{userId}/warn: an audit-trail row and a 'moderation' notification; nothing else changes. */
export async function warnUser(input: { caller: TCaller; userId: string; reason: string; reportId?: string }) {
  if (input.userId === input.caller.userId) throw new AppError('CANNOT_TARGET_SELF', 'You cannot warn yourself');
  const reason = input.reason.trim();
  return withTransaction(async (tx) => {
    const [u] = await tx.select({ id: users.id, username: users.username }).from(users).where(eq(users.id, input.userId));
    if (!u) throw new AppError('USER_NOT_FOUND', 'User not found', { userId: input.userId });
    const reportId = await checkReport(tx, input.reportId);
    const at = now();
    const [row] = await tx
      .insert(moderationActions)
      .values({ actorId: input.caller.userId, action: 'warn', targetUserId: u.id, reportId, reason, createdAt: at })
      .returning({ id: moderationActions.id });
    await notify(tx, [
      {
        userId: u.id,
        type: 'system',
        kind: 'moderation',
        title: 'A warning from the moderators',
        message: `Reason: ${reason}. Further breaches of the rules may lead to a ban.`,
        link: null,
      },
    ]);
    return { message: `@${u.username} was warned`, actionId: row!.id, user: { id: u.id, username: u.username } };
  });
}
