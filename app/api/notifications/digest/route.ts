import { notificationsDigest } from '@/lib/contracts/notifications';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { now } from '@/lib/clock/clock';
import { digestOf } from '@/lib/notifications/digest';

// GET /api/notifications/digest — the digest-delivered notifications of the last days, grouped
export const GET = route(notificationsDigest, async ({ query, caller }) => digestOf({ caller, days: query.days, at: now() }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
