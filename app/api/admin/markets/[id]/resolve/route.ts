import { adminResolveMarket } from '@/lib/contracts/markets';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { resolveMarket } from '@/lib/markets/service/resolve-market';

// POST /api/admin/markets/{id}/resolve — pay every winning share 1, once
export const POST = route(adminResolveMarket, async ({ params, body }) =>
  resolveMarket({ marketId: params.id, outcome: body.outcome }),
);

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
