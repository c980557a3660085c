import { moderationReportCreate, moderationReportsList } from '@/lib/contracts/moderation';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { createReport, listMyReports } from '@/lib/moderation/service/reports';

// POST /api/moderation/reports — report a user or a post
export const POST = route(moderationReportCreate, async ({ body, caller }) => createReport({ caller, report: body }));

// GET /api/moderation/reports — the caller's own reports
export const GET = route(moderationReportsList, async ({ query, caller }) => listMyReports({ caller, ...query }));

// PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
