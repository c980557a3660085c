/**
 * Notifications in the browser: the list, the unread count (polled, for the navigation badge)
 * and marking read (optimistic: the list and the badge change at once); the caller's channel per
 * kind (saved through PUT, optimistic, with the list and the badge refreshed since what they show
 * depends on it) and the grouped digest. queryOptions factories
 * own every query key. I/O: the typed client only.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/lib/client/api';
import type { TEndpointResponse } from '@/lib/contracts/endpoint';
import {
  notificationPreferencesGet,
  notificationPreferencesSet,
  notificationsDigest,
  notificationsList,
  notificationsMarkRead,
  type TNotification,
  type ZNotificationChannel,
  type ZPreferenceKind,
} from '@/lib/contracts/notifications';

export type { TNotification };
export type TNotificationType = TNotification['type'];
export type TNotificationKind = NonNullable<TNotification['kind']>;

const keys = {
  all: ['notifications'] as const,
  list: () => [...keys.all, 'list'] as const,
  unread: () => [...keys.all, 'unread'] as const,
};

/** How often the list and the badge look for new notifications while a page is open. */
export const NOTIFICATIONS_REFETCH_MS = 15_000;
export const NOTIFICATIONS_LIMIT = 100;

export function getNotificationsQueryOptions() {
  return queryOptions({
    queryKey: keys.list(),
    queryFn: () => api(notificationsList, { query: { limit: NOTIFICATIONS_LIMIT } }),
  });
}

export function useNotifications({ isEnabled = true }: { isEnabled?: boolean } = {}) {
  return useQuery({ ...getNotificationsQueryOptions(), enabled: isEnabled, refetchInterval: NOTIFICATIONS_REFETCH_MS });
}

export function getUnreadCountQueryOptions() {
  return queryOptions({
    queryKey: keys.unread(),
    queryFn: async () => (await api(notificationsList, { query: { unread: 'true', limit: 1 } })).unreadCount,
    staleTime: 5_000,
  });
}

/** The unread count for the badge; idle while signed out. */
export function useUnreadCount({ isEnabled = true }: { isEnabled?: boolean } = {}) {
  return useQuery({ ...getUnreadCountQueryOptions(), enabled: isEnabled, refetchInterval: NOTIFICATIONS_REFETCH_MS });
}

type TList = { notifications: TNotification[]; unreadCount: number };

/** Marks some notifications (by id) or all of them read. */
export function useMarkNotificationsRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (target: { ids: string[] } | { all: true }) =>
      api(notificationsMarkRead, { body: 'all' in target ? { all: true } : { notificationIds: target.ids } }),
    onMutate: async (target) => {
      await Promise.all([qc.cancelQueries({ queryKey: keys.list() }), qc.cancelQueries({ queryKey: keys.unread() })]);
      const list = qc.getQueryData<TList>(keys.list());
      const unread = qc.getQueryData<number>(keys.unread());
      const isTarget = (n: TNotification) => 'all' in target || target.ids.includes(n.id);
      if (list) {
        const notifications = list.notifications.map((n) => (isTarget(n) ? { ...n, read: true } : n));
        const newlyRead = list.notifications.filter((n) => !n.read && isTarget(n)).length;
        const unreadCount = 'all' in target ? 0 : Math.max(0, list.unreadCount - newlyRead);
        qc.setQueryData<TList>(keys.list(), { ...list, notifications, unreadCount });
        qc.setQueryData(keys.unread(), unreadCount);
      } else if ('all' in target) {
        qc.setQueryData(keys.unread(), 0);
      }
      return { list, unread };
    },
    onError: (_e, _v, ctx) => {
      if (ctx?.list) qc.setQueryData(keys.list(), ctx.list);
      if (ctx?.unread !== undefined) qc.setQueryData(keys.unread(), ctx.unread);
    },
    onSuccess: (res) => qc.setQueryData(keys.unread(), res.unreadCount),
    onSettled: () => qc.invalidateQueries({ queryKey: keys.all }),
  });
}

export type TPreferenceKind = z.infer<typeof ZPreferenceKind>;
export type TNotificationChannel = z.infer<typeof ZNotificationChannel>;

type TPreferences = TEndpointResponse<typeof notificationPreferencesGet>;

const prefKeys = {
  preferences: ['notification-preferences'] as const,
  digest: (days: number) => [...keys.all, 'digest', days] as const,
};

export function getNotificationPreferencesQueryOptions() {
  return queryOptions({ queryKey: prefKeys.preferences, queryFn: () => api(notificationPreferencesGet, {}) });
}

export function useNotificationPreferences({ isEnabled = true }: { isEnabled?: boolean } = {}) {
  return useQuery({ ...getNotificationPreferencesQueryOptions(), enabled: isEnabled });
}

/** Saves some kinds' channels; the answer (every kind) replaces the cached preferences. */
export function useSetNotificationPreferences() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (preferences: { kind: TPreferenceKind; channel: TNotificationChannel }[]) => api(notificationPreferencesSet, { body: { preferences } }),
    // Optimistic: the select shows the new channel at once (and keeps its focus); undone on error.
    onMutate: async (preferences) => {
      await qc.cancelQueries({ queryKey: prefKeys.preferences });
      const before = qc.getQueryData<TPreferences>(prefKeys.preferences);
      if (before) {
        const next = new Map(preferences.map((p) => [p.kind, p.channel]));
        qc.setQueryData<TPreferences>(prefKeys.preferences, { ...before, preferences: before.preferences.map((p) => ({ ...p, channel: next.get(p.kind) ?? p.channel })) });
      }
      return { before };
    },
    onError: (_e, _v, ctx) => {
      if (ctx?.before) qc.setQueryData(prefKeys.preferences, ctx.before);
    },
    onSuccess: (res) => qc.setQueryData(prefKeys.preferences, res),
    onSettled: () => qc.invalidateQueries({ queryKey: keys.all }),
  });
}

export function getNotificationDigestQueryOptions(days: number) {
  return queryOptions({ queryKey: prefKeys.digest(days), queryFn: () => api(notificationsDigest, { query: { days } }) });
}

export function useNotificationDigest(days: number, { isEnabled = true }: { isEnabled?: boolean } = {}) {
  return useQuery({ ...getNotificationDigestQueryOptions(days), enabled: isEnabled });
}
