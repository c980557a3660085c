import { predictionOrderBook, predictionOrderPlace } from '@/lib/contracts/orders';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { readBook } from '@/lib/markets/orders/read-book';
import { placeOrPreviewPredictionOrder } from '@/lib/markets/orders/place-order';

// GET /api/markets/predictions/{id}/orders — the question's order book
export const GET = route(predictionOrderBook, async ({ params }) => readBook(params.id));

// POST /api/markets/predictions/{id}/orders — place a limit order (dryRun: preview it)
export const POST = route(predictionOrderPlace, async ({ params, body, caller }) =>
  placeOrPreviewPredictionOrder({ caller, marketId: params.id, ...body }),
);

// PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
