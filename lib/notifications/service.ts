/**
 * Notifications: written inside the transaction of the action that causes them (never for your
 * own action on your own content), listed newest first with the unread count, marked read by ids
 * or all at once.
 *
 * Per-kind preferences (notification_preferences, ./preferences.ts): `notify` writes nothing of a
 * kind the recipient turned off and marks the digest ones `delivery = 'digest'`; the list and the
 * unread count show the in-app ones (the digest ones with `delivery=digest`, and ./digest.ts).
 *
 * Blocks and mutes (lib/moderation/visibility canNotify) hold on both sides: `notify` writes no
 * notification whose actor is in a block with the recipient (either way) or muted by them, in
 * the insert itself; and the list and the unread count leave out the same ones, so notifications
 * written before a block or a mute disappear with it (and come back on unblock or unmute).
 */
import 'server-only';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { getDb, rowsOf, type DbOrTx } from '@/db/client';
import { notificationPreferences, notifications, users } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { canNotify } from '@/lib/moderation/visibility';
import { preferenceKeySql } from './delivery';
import { toNotificationDto, type TNotificationRowRaw } from './dto';
import type { TNotificationKind } from './kinds';

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
  /** What a `system` notification is about (price_move, liquidation, …); null for the social types. */
  kind?: TNotificationKind | null;
  /** The in-app page it is about, when one. */
  link?: string | null;
};

/**
 * Writes notifications, skipping any addressed to their own actor and, in the same statement,
 * any the recipient may not get from that actor (a block either way, the recipient's mute).
 */
export async function notify(db: DbOrTx, items: TNotify[]) {
  const rows = items.filter((n) => !n.actorId || n.actorId !== n.userId);
  if (rows.length === 0) return;
  const at = now().toISOString();
  const values = sql.join(
    rows.map(
      (n) =>
        sql`(${crypto.randomUUID()}::text, ${n.userId}::text, ${n.type}::text, ${n.actorId ?? null}::text, ${n.postId ?? null}::text,
          ${n.commentId ?? null}::text, ${n.title}::text, ${n.message}::text, ${n.kind ?? null}::text, ${n.link ?? null}::text)`,
    ),
    sql`, `,
  );
  // The recipient's preference for the kind (the type for the social ones): off writes nothing,
  // digest writes it for the daily digest (./delivery.ts).
  await db.execute(sql`
    insert into ${notifications} (id, user_id, type, actor_id, post_id, comment_id, title, message, kind, link, read, delivery, created_at)
    select v.id, v.user_id, v.type, v.actor_id, v.post_id, v.comment_id, v.title, v.message, v.kind, v.link, false,
      case when np.channel = 'digest' then 'digest' else 'in_app' end, ${at}::timestamptz
    from (values ${values}) as v(id, user_id, type, actor_id, post_id, comment_id, title, message, kind, link)
    left join ${notificationPreferences} np on np.user_id = v.user_id and np.kind = ${preferenceKeySql(sql`v.kind`, sql`v.type`)}
    where ${canNotify(sql`v.user_id`, sql`v.actor_id`)} and np.channel is distinct from 'off'`);
}

/** The caller's notifications a listing shows: their own, from actors they may hear from. */
const shownTo = (userId: string) => sql`n.user_id = ${userId} and ${canNotify(sql`n.user_id`, sql`n.actor_id`)}`;

/** The unread count: in-app notifications only (the digest's wait for the digest). */
const unreadCountOf = async (db: DbOrTx, userId: string) => {
  const [r] = rowsOf<{ n: number | string }>(
    await db.execute(sql`select count(*) as n from ${notifications} n where ${shownTo(userId)} and n.delivery = 'in_app' and n.read = false`),
  );
  return Number(r?.n ?? 0);
};

/**
 * The caller's notifications newest first (only unread ones when asked), with the unread count:
 * the in-app ones by default, the digest-delivered ones with `delivery: 'digest'`.
 */
export async function listNotifications(input: { caller: TCaller; unread?: boolean; limit: number; delivery?: 'in_app' | 'digest' }) {
  const { userId } = input.caller;
  const db = await getDb();
  const rows = rowsOf<TNotificationRowRaw>(
    await db.execute(sql`
      select n.id, n.type, n.actor_id, a.username as actor_username, a.display_name as actor_display_name,
        a.profile_image_url as actor_image, n.post_id, n.comment_id, n.title, n.message, n.read, n.created_at,
        n.kind, n.link
      from ${notifications} n left join ${users} a on a.id = n.actor_id
      where ${shownTo(userId)} and n.delivery = ${input.delivery ?? 'in_app'} ${input.unread ? sql`and n.read = false` : sql``}
      order by n.created_at desc, n.id desc
      limit ${input.limit}`),
  );
  return { notifications: rows.map(toNotificationDto), unreadCount: await unreadCountOf(db, userId) };
}

/** Marks the caller's notifications (by ids, or all) read or unread; others' ids are ignored. */
export async function markNotifications(input: { caller: TCaller; ids?: string[]; all?: boolean; read: boolean }) {
  const { userId } = input.caller;
  const db = await getDb();
  const where = and(eq(notifications.userId, userId), input.all ? undefined : inArray(notifications.id, input.ids ?? []));
  const updated = await db.update(notifications).set({ read: input.read }).where(where).returning({ id: notifications.id });
  return { updated: updated.length, unreadCount: await unreadCountOf(db, userId) };
}
