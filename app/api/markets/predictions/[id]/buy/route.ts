import { predictionsBuy } from '@/lib/contracts/markets';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { buyShares } from '@/lib/markets/service/buy-shares';

// POST /api/markets/predictions/{id}/buy — buy YES or NO shares
export const POST = route(predictionsBuy, async ({ params, body, caller }) =>
  buyShares({ caller, marketId: params.id, ...body }),
);

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
