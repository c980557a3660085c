/** Database rows to the API's notification shape. No I/O. */
import type { TNotification } from '@/lib/contracts/notifications';

const iso = (d: Date | string) => new Date(d).toISOString();

export type TNotificationRowRaw = {
  id: string;
  type: TNotification['type'];
  actor_id: string | null;
  actor_username: string | null;
  actor_display_name: string | null;
  actor_image: string | null;
  post_id: string | null;
  comment_id: string | null;
  title: string;
  message: string;
  read: boolean;
  created_at: string | Date;
};

export const toNotificationDto = (r: TNotificationRowRaw): TNotification => ({
  id: r.id,
  type: r.type,
  actorId: r.actor_id,
  actor: r.actor_id && r.actor_username ? { username: r.actor_username, displayName: r.actor_display_name ?? '', profileImageUrl: r.actor_image } : null,
  postId: r.post_id,
  commentId: r.comment_id,
  title: r.title,
  message: r.message,
  read: r.read,
  createdAt: iso(r.created_at),
});
