import { reputationBreakdownGet } from '@/lib/contracts/reputation';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { readReputationBreakdown } from '@/lib/reputation/service/read-reputation';

// GET /api/reputation/breakdown/{userId} — public
export const GET = route(reputationBreakdownGet, async ({ params }) => readReputationBreakdown(params.userId));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
