import { adminReportAction, adminReportDetail } from '@/lib/contracts/admin';
import { actOnReport } from '@/lib/admin/service/act-on-report';
import { getReport } from '@/lib/admin/service/reports';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// GET /api/admin/reports/{reportId} — the report in full, related reports, the audit trail (moderators)
export const GET = route(adminReportDetail, async ({ params, caller }) => getReport({ caller, reportId: params.reportId }));

// POST /api/admin/reports/{reportId} — review, resolve, dismiss, escalate (moderators) or ban_user (administrators)
export const POST = route(adminReportAction, async ({ params, body, caller }) => actOnReport({ caller, reportId: params.reportId, ...body }));

// PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
