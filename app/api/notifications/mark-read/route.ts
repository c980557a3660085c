import { notificationsMarkRead } from '@/lib/contracts/notifications';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { markNotifications } from '@/lib/notifications/service';

// POST /api/notifications/mark-read — mark read (variant)
export const POST = route(notificationsMarkRead, async ({ body, caller }) =>
  markNotifications({ caller, ids: body.notificationIds, all: body.all, read: true }),
);

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
