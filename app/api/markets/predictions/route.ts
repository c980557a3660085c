import { predictionsList } from '@/lib/contracts/markets';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { listPredictions } from '@/lib/markets/service/read-markets';

// GET /api/markets/predictions — questions by status, with userPosition when userId is given
export const GET = route(predictionsList, async ({ query }) => listPredictions(query));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
