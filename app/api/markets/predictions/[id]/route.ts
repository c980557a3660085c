import { predictionsGet } from '@/lib/contracts/markets';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { getPrediction } from '@/lib/markets/service/read-markets';

// GET /api/markets/predictions/{id} — one question
export const GET = route(predictionsGet, async ({ params }) => getPrediction(params.id));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
