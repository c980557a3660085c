import { adminModerationReasons } from '@/lib/contracts/admin';
import { listModerationReasons } from '@/lib/admin/service/moderation-actions';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// GET /api/admin/moderation/reasons — the canned reasons
export const GET = route(adminModerationReasons, async () => listModerationReasons());

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
