/** Rules every comment write shares: the text rule and "only its author may change it". */
import 'server-only';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { comments } from '@/db/schema';
import { AppError } from '@/lib/errors/app-error';
import { COMMENT_MAX_CHARS, COMMENT_MIN_CHARS, visibleLength } from '@/lib/posts/text';

/** The trimmed text, or VALIDATION_ERROR when it is shorter or longer than a comment may be. */
export function checkCommentContent(raw: string) {
  const content = raw.trim();
  const n = visibleLength(content);
  if (n < COMMENT_MIN_CHARS) {
    throw new AppError('VALIDATION_ERROR', `A comment needs at least ${COMMENT_MIN_CHARS} characters`, { length: n, min: COMMENT_MIN_CHARS });
  }
  if (n > COMMENT_MAX_CHARS) throw new AppError('VALIDATION_ERROR', `A comment is at most ${COMMENT_MAX_CHARS} characters`, { length: n });
  return content;
}

/** The comment row when it exists, is not deleted and `userId` wrote it: 404 or 403 otherwise. */
export async function requireOwnComment(db: DbOrTx, id: string, userId: string) {
  const [c] = await db.select().from(comments).where(eq(comments.id, id));
  if (!c || c.deletedAt) throw new AppError('NOT_FOUND', 'Comment not found', { commentId: id });
  if (c.authorId !== userId) throw new AppError('FORBIDDEN', 'Only its author may change this comment');
  return c;
}
