import { predictionsHistory } from '@/lib/contracts/markets';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { getPriceHistory } from '@/lib/markets/service/read-markets';

// GET /api/markets/predictions/{id}/history?range= — price points for charts
export const GET = route(predictionsHistory, async ({ params, query }) => getPriceHistory(params.id, query.range));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
