/** Notifications: the list with its unread count, and marking them read. */
import { z } from 'zod';
import { ZIdParam, ZSuccess, ZTimestamp, zQueryBool, zQueryInt, type TSame } from './common';
import type { TNotification } from '@/lib/notifications/dto';
import { NOTIFICATION_KINDS } from '@/lib/notifications/kinds';
import { NOTIFICATION_CHANNELS, PREFERENCE_KINDS } from '@/lib/notifications/labels';
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
  query: z.object({
    unread: zQueryBool.optional(),
    limit: zQueryInt({ default: 50, min: 1, max: 100 }),
    delivery: z
      .enum(['in_app', 'digest'])
      .default('in_app')
      .describe("which notifications: the in-app ones (default) or those kept for the daily digest; the unread count is always the in-app one's"),
  }),
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

/** A kind one sets a preference for: every system kind and the social types (lib/notifications/labels.ts). */
export const ZPreferenceKind = z.enum(PREFERENCE_KINDS);
export const ZNotificationChannel = z.enum(NOTIFICATION_CHANNELS).describe('in_app: listed and counted; digest: kept for the daily digest; off: not written');

export const ZNotificationPreference = z.object({
  kind: ZPreferenceKind,
  label: z.string(),
  description: z.string(),
  channel: ZNotificationChannel,
});

const ZPreferencesResponse = z.object({ success: ZSuccess, preferences: z.array(ZNotificationPreference) });

export const notificationPreferencesGet = defineEndpoint({
  id: 'notifications.preferences.get',
  method: 'GET',
  path: '/api/notifications/preferences',
  summary: "The caller's channel for each notification kind (in_app when never set)",
  tag: 'notifications',
  auth: 'user',
  requires: ['read'],
  response: ZPreferencesResponse,
});

export const notificationPreferencesSet = defineEndpoint({
  id: 'notifications.preferences.set',
  method: 'PUT',
  path: '/api/notifications/preferences',
  summary: "Set the caller's channel for some notification kinds (the others keep theirs)",
  tag: 'notifications',
  auth: 'user',
  requires: ['account'],
  body: z.strictObject({
    preferences: z
      .array(z.strictObject({ kind: ZPreferenceKind, channel: ZNotificationChannel }))
      .min(1)
      .max(PREFERENCE_KINDS.length * 2)
      .refine((ps) => ps.every((p) => !(p.kind === 'digest' && p.channel === 'digest')), {
        message: 'the daily digest itself is in_app or off',
      })
      // A moderator's warning, removal or ban must reach the player: it may wait for the digest, never be off.
      .refine((ps) => ps.every((p) => !(p.kind === 'moderation' && p.channel === 'off')), {
        message: 'moderation notices are in_app or digest',
      }),
  }),
  response: ZPreferencesResponse,
});

export const ZDigestGroup = z.object({
  kind: z.string().describe('the system kind, or the social type'),
  label: z.string().describe('the kind\'s name ("Order filled")'),
  summary: z.string().describe('"3 orders filled in “…”"'),
  count: z.number().int(),
  unread: z.number().int(),
  link: z.string().nullable(),
  latestTitle: z.string(),
  latestMessage: z.string(),
  latestAt: ZTimestamp,
});

export const notificationsDigest = defineEndpoint({
  id: 'notifications.digest',
  method: 'GET',
  path: '/api/notifications/digest',
  summary: "The caller's digest-delivered notifications of the last days, grouped by kind and subject",
  tag: 'notifications',
  auth: 'user',
  requires: ['read'],
  query: z.object({ days: zQueryInt({ default: 7, min: 1, max: 30 }) }),
  response: z.object({ success: ZSuccess, days: z.number().int(), groups: z.array(ZDigestGroup) }),
});

export const notificationsEndpoints = [
  notificationsList,
  notificationsUpdate,
  notificationsMarkRead,
  notificationPreferencesGet,
  notificationPreferencesSet,
  notificationsDigest,
] as const;
