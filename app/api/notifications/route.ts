import { notificationsList, notificationsUpdate } from '@/lib/contracts/notifications';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { listNotifications, markNotifications } from '@/lib/notifications/service';

// GET /api/notifications — notifications with unread count
export const GET = route(notificationsList, async ({ query, caller }) => listNotifications({ caller, ...query }));

// PATCH /api/notifications — mark read or unread
export const PATCH = route(notificationsUpdate, async ({ body, caller }) =>
  markNotifications({ caller, ids: body.notificationIds, all: body.all, read: body.read }),
);

// POST, PUT, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, DELETE, OPTIONS } = methodNotAllowedHandlers;
