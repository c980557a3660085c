/** Reading a post's comments (the caller, when signed in, gets their like flags). */
import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { posts } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { AppError } from '@/lib/errors/app-error';
import { canSee } from '@/lib/moderation/visibility';
import { findPostComments } from '../queries';

/**
 * A post's comments oldest first, those the caller may see (lib/comments/queries.ts); 404 when
 * the post does not exist or is hidden from the caller, as GET /api/posts/{id} answers.
 */
export async function listComments(input: { caller: TCaller | null; postId: string }) {
  const db = await getDb();
  const callerId = input.caller?.userId ?? null;
  const [p] = await db
    .select({ id: posts.id })
    .from(posts)
    .where(and(eq(posts.id, input.postId), canSee(sql`${posts.authorId}`, callerId)));
  if (!p) throw new AppError('NOT_FOUND', 'Post not found', { postId: input.postId });
  const showRemoved = !!(input.caller?.isAdmin || input.caller?.isModerator);
  const list = await findPostComments(db, input.postId, callerId, showRemoved);
  return { comments: list, count: list.length };
}
