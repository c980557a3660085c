import { predictionsNews } from '@/lib/contracts/markets';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { getRelatedNews } from '@/lib/markets/service/read-markets';

// GET /api/markets/predictions/{id}/news — world news that bears on the question
export const GET = route(predictionsNews, async ({ params, query }) => getRelatedNews({ marketId: params.id, limit: query.limit }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
