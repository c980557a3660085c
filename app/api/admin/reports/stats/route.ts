import { adminReportStats } from '@/lib/contracts/admin';
import { getReportStats } from '@/lib/admin/service/reports';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// GET /api/admin/reports/stats — totals, top reported users and reporters, the last 7 days (moderators)
export const GET = route(adminReportStats, async ({ caller }) => getReportStats({ caller }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
