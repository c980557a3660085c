/**
 * The API's notification shape (TNotification: lib/contracts/notifications.ts documents it as
 * ZNotification and checks the two agree) and database rows to it. No I/O.
 */
import { NOTIFICATION_KINDS, type TNotificationKind } from './kinds';

/** A notification as GET /api/notifications lists it. */
export type TNotification = {
  id: string;
  type: 'comment' | 'reaction' | 'follow' | 'mention' | 'reply' | 'share' | 'system';
  actorId: string | null;
  actor: { username: string; displayName: string; profileImageUrl: string | null } | null;
  postId: string | null;
  commentId: string | null;
  title: string;
  message: string;
  read: boolean;
  createdAt: string;
  /** The finer kind of a `system` notification; null for the social types. */
  kind: TNotificationKind | null;
  /** The in-app page it is about (`/markets/<id>`, `/perps/<ticker>`, `/pools/<id>`, `/portfolio`), when one. */
  link: string | null;
};

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
  kind: string | null;
  link: string | null;
};

/** A stored kind the contract knows, else null (a kind written by a newer writer is not an error). */
const kindOf = (k: string | null): TNotificationKind | null =>
  k !== null && (NOTIFICATION_KINDS as readonly string[]).includes(k) ? (k as TNotificationKind) : null;

/** Only in-app paths are links: a stored value that is not one is left out. */
const linkOf = (l: string | null) => (l !== null && l.startsWith('/') && !l.startsWith('//') ? l : null);

export function toNotificationDto(r: TNotificationRowRaw): TNotification {
  return {
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
  kind: kindOf(r.kind),
  link: linkOf(r.link),
};
}
