import { adminModerationActions } from '@/lib/contracts/admin';
import { listModerationActions } from '@/lib/admin/service/moderation-actions';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// GET /api/admin/moderation/actions — the moderation audit trail, newest first, by cursor
export const GET = route(adminModerationActions, async ({ query }) => listModerationActions({ query }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
