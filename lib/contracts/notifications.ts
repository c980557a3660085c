/** Notifications: the list with its unread count, and marking them read. */
import { z } from 'zod';
import { ZIdParam, ZSuccess, ZTimestamp, zQueryBool, zQueryInt, type TSame } from './common';
import type { TNotification } from '@/lib/notifications/dto';
import { NOTIFICATION_KINDS } from '@/lib/notifications/kinds';
import { defineEndpoint } from './endpoint';

/** The finer kind of a `system` notification (lib/notifications/kinds.ts). */
export const ZNotificationKind = z.enum(NOTIFICATION_KINDS);

export const ZNotification = z.object({
  id: z.string(),
  type: z.enum(['comment', 'reaction', 'follow', 'mention', 'reply', 'share', 'system']),
  actorId: z.string().nullable(),
  actor: z.object({ username: z.string(), displayName: z.string(), profileImageUrl: z.string().nullable() }).nullable(),
  postId: z.string().nullable(),
  commentId: z.string().nullable(),
  title: z.string(),
  message: z.string(),
  read: z.boolean(),
  createdAt: ZTimestamp,
  /** Additive: the finer kind of a `system` notification; null for the social types. */
  kind: ZNotificationKind.nullable(),
  /** Additive: the in-app page it is about (`/markets/<id>`, `/perps/<ticker>`, `/pools/<id>`, `/portfolio`), when one. */
  link: z.string().nullable(),
});

// lib/notifications/dto.ts owns the notification's shape; the schema documents exactly that (common.ts TSame).
export type { TNotification };
const _notification: TSame<z.infer<typeof ZNotification>, TNotification> = true;

export const notificationsList = defineEndpoint({
  id: 'notifications.list',
  method: 'GET',
  path: '/api/notifications',
  summary: "The caller's notifications, newest first, with the unread count",
  tag: 'notifications',
  auth: 'user',
  requires: ['read'],
  query: z.object({ unread: zQueryBool.optional(), limit: zQueryInt({ default: 50, min: 1, max: 100 }) }),
  response: z.object({ success: ZSuccess, notifications: z.array(ZNotification), unreadCount: z.number().int() }),
});

const ZMarkBody = z.strictObject({ notificationIds: z.array(ZIdParam).max(500).optional(), all: z.boolean().optional() });

const namesSome = (b: z.infer<typeof ZMarkBody>) => b.all === true || (b.notificationIds?.length ?? 0) > 0;

const needIds = { message: 'notificationIds or all: true is required', path: ['notificationIds'] };

const ZMarkResponse = z.object({ success: ZSuccess, updated: z.number().int(), unreadCount: z.number().int() });

export const notificationsUpdate = defineEndpoint({
  id: 'notifications.update',
  method: 'PATCH',
  path: '/api/notifications',
  summary: 'Mark notifications read or unread: by ids, or all',
  tag: 'notifications',
  auth: 'user',
  requires: ['social'],
  body: ZMarkBody.extend({ read: z.boolean().default(true) }).refine(namesSome, needIds),
  response: ZMarkResponse,
});

export const notificationsMarkRead = defineEndpoint({
  id: 'notifications.markRead',
  method: 'POST',
  path: '/api/notifications/mark-read',
  summary: 'Mark notifications read (variant form)',
  tag: 'notifications',
  auth: 'user',
  requires: ['social'],
  body: ZMarkBody.refine(namesSome, needIds),
  response: ZMarkResponse,
});

export const notificationsEndpoints = [
  notificationsList,
  notificationsUpdate,
  notificationsMarkRead,
] as const;
