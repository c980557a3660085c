import { adminStats } from '@/lib/contracts/admin';
import { getAdminStats } from '@/lib/admin/service/stats';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// GET /api/admin/stats — users, activity, trading, open interest, reports, and by day
export const GET = route(adminStats, async ({ query, caller }) => getAdminStats({ caller, days: query.days }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
