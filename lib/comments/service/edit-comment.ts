/** Editing a comment: its author only, not once deleted, and not while a moderator has it removed. */
import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { comments } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import { findComment } from '../queries';
import { checkCommentContent, requireOwnComment } from './shared';

export async function editComment(input: { caller: TCaller; commentId: string; content: string }) {
  const content = checkCommentContent(input.content);
  const db = await getDb();
  const own = await requireOwnComment(db, input.commentId, input.caller.userId);
  if (own.removedAt) throw new AppError('FORBIDDEN', 'A moderator removed this comment: it cannot be edited', { commentId: own.id });
  const at = now();
  await db.update(comments).set({ content, editedAt: at, updatedAt: at }).where(and(eq(comments.id, input.commentId), sql`${comments.deletedAt} is null`));
  return { comment: (await findComment(db, input.commentId, input.caller.userId))! };
}
