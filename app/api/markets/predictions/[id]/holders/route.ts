import { predictionsHolders } from '@/lib/contracts/markets';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { getTopHolders } from '@/lib/markets/service/read-markets';

// GET /api/markets/predictions/{id}/holders — the largest holders on each side
export const GET = route(predictionsHolders, async ({ caller, params, query }) => getTopHolders({ caller, marketId: params.id, limit: query.limit }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
