/** Read queries for comments: one statement reads comments with their authors and the caller's like flag. */
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '@/db/client';
import { commentLikes, comments, users } from '@/db/schema';
import { toCommentDto, type TCommentRowRaw } from './dto';

/** Comments matching `where`, oldest first, with authors and whether `callerId` liked each. */
export const buildCommentsQuery = (where: SQL, callerId: string | null) => sql`
  select c.id, c.post_id, c.parent_comment_id, c.content, c.likes_count, c.replies_count, c.created_at, c.updated_at,
    c.edited_at, c.deleted_at, c.author_id, u.username, u.display_name, u.profile_image_url, u.reputation_points, u.is_actor,
    exists(select 1 from ${commentLikes} l where l.comment_id = c.id and l.user_id = ${callerId ?? ''}) as liked
  from ${comments} c join ${users} u on u.id = c.author_id
  where ${where}
  order by c.created_at asc, c.id asc`;

/** The comments of a post, oldest first. */
export const findPostComments = async (db: DbOrTx, postId: string, callerId: string | null) =>
  rowsOf<TCommentRowRaw>(await db.execute(buildCommentsQuery(sql`c.post_id = ${postId}`, callerId))).map(toCommentDto);

/** One comment as the API shows it, or null. */
export const findComment = async (db: DbOrTx, id: string, callerId: string | null) => {
  const [row] = rowsOf<TCommentRowRaw>(await db.execute(buildCommentsQuery(sql`c.id = ${id}`, callerId)));
  return row ? toCommentDto(row) : null;
};
