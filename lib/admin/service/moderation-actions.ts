/**
 * The moderation audit trail (issue 35): every removal, restoration, warning, ban and lifted ban,
 * newest first, cursor-paged (keyset on created_at, id: stable while actions are added), filtered
 * by target user and action; and the canned reasons. Reads only, one statement a page.
 */
import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import { getDb, rowsOf } from '@/db/client';
import { moderationActions, users } from '@/db/schema';
import { decodeCursor, encodeCursor } from '@/lib/posts/cursor';
import { MODERATION_REASONS, type TModerationAction } from '@/lib/moderation/reasons';

export type TModerationActionsQuery = { limit: number; cursor?: string; targetUserId?: string; action?: TModerationAction };

type TRow = {
  id: string;
  action: TModerationAction;
  reason: string | null;
  ends_at: string | Date | null;
  created_at: string | Date;
  post_id: string | null;
  comment_id: string | null;
  report_id: string | null;
  actor_id: string;
  actor_username: string;
  actor_display_name: string;
  target_id: string | null;
  target_username: string | null;
  target_display_name: string | null;
};

const iso = (d: string | Date) => new Date(d).toISOString();

/** GET /api/admin/moderation/actions. */
export async function listModerationActions(input: { query: TModerationActionsQuery }) {
  const q = input.query;
  const conds: SQL[] = [sql`true`];
  if (q.targetUserId) conds.push(sql`m.target_user_id = ${q.targetUserId}`);
  if (q.action) conds.push(sql`m.action = ${q.action}`);
  if (q.cursor) {
    const c = decodeCursor(q.cursor);
    conds.push(sql`(m.created_at, m.id) < (${c.at.toISOString()}::timestamptz, ${c.id})`);
  }
  const db = await getDb();
  const rows = rowsOf<TRow>(
    await db.execute(sql`
    select m.id, m.action, m.reason, m.ends_at, m.created_at, m.post_id, m.comment_id, m.report_id,
      a.id as actor_id, a.username as actor_username, a.display_name as actor_display_name,
      t.id as target_id, t.username as target_username, t.display_name as target_display_name
    from ${moderationActions} m
    join ${users} a on a.id = m.actor_id
    left join ${users} t on t.id = m.target_user_id
    where ${sql.join(conds, sql` and `)}
    order by m.created_at desc, m.id desc
    limit ${q.limit + 1}`),
  );
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    actions: page.map((r) => ({
      id: r.id,
      action: r.action,
      actor: { id: r.actor_id, username: r.actor_username, displayName: r.actor_display_name ?? '' },
      targetUser: r.target_id ? { id: r.target_id, username: r.target_username ?? '', displayName: r.target_display_name ?? '' } : null,
      postId: r.post_id,
      commentId: r.comment_id,
      reportId: r.report_id,
      reason: r.reason,
      endsAt: r.ends_at ? iso(r.ends_at) : null,
      createdAt: iso(r.created_at),
    })),
    nextCursor: rows.length > q.limit && last ? encodeCursor({ at: new Date(last.created_at), id: last.id }) : null,
  };
}

/** GET /api/admin/moderation/reasons. */
export function listModerationReasons() {
  return { reasons: MODERATION_REASONS.map((r) => ({ ...r })) };
}
