import { adminReports } from '@/lib/contracts/admin';
import { listReports } from '@/lib/admin/service/reports';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// GET /api/admin/reports — the report queue, filtered, sorted and paged (moderators)
export const GET = route(adminReports, async ({ query, caller }) => listReports({ caller, query }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
