/**
 * Read queries for comments: one statement reads comments with their authors and the caller's
 * like flag. Only comments the caller may see are read (lib/moderation/visibility canSee: no
 * block either way, not muted by the caller, the author not banned), and a post's list also
 * leaves out the replies under a hidden comment (./threads.ts).
 */
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '@/db/client';
import { commentLikes, comments, users } from '@/db/schema';
import { canSee } from '@/lib/moderation/visibility';
import { toCommentDto, type TCommentRowRaw } from './dto';
import { keepVisibleThreads } from './threads';

/** Comments matching `where` that `callerId` may see, oldest first, with authors and whether `callerId` liked each. */
export function buildCommentsQuery(where: SQL, callerId: string | null) {
  return sql`
  select c.id, c.post_id, c.parent_comment_id, c.content, c.likes_count, c.replies_count, c.created_at, c.updated_at,
    c.edited_at, c.deleted_at, c.removed_at, c.removed_reason, c.author_id, u.username, u.display_name, u.profile_image_url, u.reputation_points, u.is_actor,
    exists(select 1 from ${commentLikes} l where l.comment_id = c.id and l.user_id = ${callerId ?? ''}) as liked
  from ${comments} c join ${users} u on u.id = c.author_id
  where ${where} and ${canSee(sql`c.author_id`, callerId)}
  order by c.created_at asc, c.id asc`;
}

/**
 * The comments of a post the caller may see, oldest first, without the threads under hidden ones.
 * A comment a moderator removed keeps its place (its replies stay in their thread) with its text
 * served only when `showRemoved` (the reader moderates).
 */
export async function findPostComments(db: DbOrTx, postId: string, callerId: string | null, showRemoved = false) {
  return keepVisibleThreads(rowsOf<TCommentRowRaw>(await db.execute(buildCommentsQuery(sql`c.post_id = ${postId}`, callerId)))).map((r) =>
    toCommentDto(r, showRemoved),
  );
}

/** One comment as the API shows it to `callerId`, or null (unknown or hidden). */
export async function findComment(db: DbOrTx, id: string, callerId: string | null, showRemoved = false) {
  const [row] = rowsOf<TCommentRowRaw>(await db.execute(buildCommentsQuery(sql`c.id = ${id}`, callerId)));
  return row ? toCommentDto(row, showRemoved) : null;
}
