import { notificationPreferencesGet, notificationPreferencesSet } from '@/lib/contracts/notifications';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { getPreferences, setPreferences } from '@/lib/notifications/preferences';

// GET /api/notifications/preferences — the caller's channel per kind
export const GET = route(notificationPreferencesGet, async ({ caller }) => getPreferences({ caller }));

// PUT /api/notifications/preferences — set some kinds' channels
export const PUT = route(notificationPreferencesSet, async ({ body, caller }) => setPreferences({ caller, preferences: body.preferences }));

// POST, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
