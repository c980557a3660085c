import { predictionsPosts } from '@/lib/contracts/markets';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { getMarketPosts } from '@/lib/markets/service/read-markets';

// GET /api/markets/predictions/{id}/posts — posts about the question the caller may see
export const GET = route(predictionsPosts, async ({ caller, params, query }) => getMarketPosts({ caller, marketId: params.id, limit: query.limit }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
