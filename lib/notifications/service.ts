/**
 * Notifications: written inside the transaction of the action that causes them (never for your
 * own action on your own content), listed newest first with the unread count, marked read by ids
 * or all at once.
 */
import 'server-only';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { getDb, rowsOf, type DbOrTx } from '@/db/client';
import { notifications, users } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { toNotificationDto, type TNotificationRowRaw } from './dto';

export type TNotify = {
  /** The recipient. */
  userId: string;
  type: 'comment' | 'reaction' | 'follow' | 'mention' | 'reply' | 'share' | 'system';
  /** Who caused it (the caller of the causing action): the notification's `actorId` in the API and the table. */
  actorId?: string | null;
  postId?: string | null;
  commentId?: string | null;
  title: string;
  message: string;
};

/** Writes notifications, skipping any addressed to their own actor. */
export const notify = async (db: DbOrTx, items: TNotify[]) => {
  const rows = items.filter((n) => !n.actorId || n.actorId !== n.userId);
  if (rows.length === 0) return;
  const at = now();
  await db.insert(notifications).values(
    rows.map((n) => ({
      userId: n.userId,
      type: n.type,
      actorId: n.actorId ?? null,
      postId: n.postId ?? null,
      commentId: n.commentId ?? null,
      title: n.title,
      message: n.message,
      createdAt: at,
    })),
  );
};

const unreadCountOf = async (db: DbOrTx, userId: string) => {
  const [r] = rowsOf<{ n: number | string }>(
    await db.execute(sql`select count(*) as n from ${notifications} where user_id = ${userId} and read = false`),
  );
  return Number(r?.n ?? 0);
};

/** The caller's notifications newest first (only unread ones when asked), with the unread count. */
export const listNotifications = async (input: { caller: TCaller; unread?: boolean; limit: number }) => {
  const { userId } = input.caller;
  const db = await getDb();
  const rows = rowsOf<TNotificationRowRaw>(
    await db.execute(sql`
      select n.id, n.type, n.actor_id, a.username as actor_username, a.display_name as actor_display_name,
        a.profile_image_url as actor_image, n.post_id, n.comment_id, n.title, n.message, n.read, n.created_at
      from ${notifications} n left join ${users} a on a.id = n.actor_id
      where n.user_id = ${userId} ${input.unread ? sql`and n.read = false` : sql``}
      order by n.created_at desc, n.id desc
      limit ${input.limit}`),
  );
  return { notifications: rows.map(toNotificationDto), unreadCount: await unreadCountOf(db, userId) };
};

/** Marks the caller's notifications (by ids, or all) read or unread; others' ids are ignored. */
export const markNotifications = async (input: { caller: TCaller; ids?: string[]; all?: boolean; read: boolean }) => {
  const { userId } = input.caller;
  const db = await getDb();
  const where = and(eq(notifications.userId, userId), input.all ? undefined : inArray(notifications.id, input.ids ?? []));
  const updated = await db.update(notifications).set({ read: input.read }).where(where).returning({ id: notifications.id });
  return { updated: updated.length, unreadCount: await unreadCountOf(db, userId) };
};
