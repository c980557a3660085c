/** Reading a post's comments (the caller, when signed in, gets their like flags). */
import 'server-only';
import { eq } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { posts } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { AppError } from '@/lib/errors/app-error';
import { findPostComments } from '../queries';

/** A post's comments oldest first; 404 when the post does not exist. */
export const listComments = async (input: { caller: TCaller | null; postId: string }) => {
  const db = await getDb();
  const [p] = await db.select({ id: posts.id }).from(posts).where(eq(posts.id, input.postId));
  if (!p) throw new AppError('NOT_FOUND', 'Post not found', { postId: input.postId });
  const list = await findPostComments(db, input.postId, input.caller?.userId ?? null);
  return { comments: list, count: list.length };
};
