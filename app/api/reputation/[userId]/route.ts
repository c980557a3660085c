import { reputationGet } from '@/lib/contracts/reputation';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { readReputation } from '@/lib/reputation/service/read-reputation';

// GET /api/reputation/{userId} — public
export const GET = route(reputationGet, async ({ params }) => readReputation(params.userId));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
