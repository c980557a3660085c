import { perpsHistory } from '@/lib/contracts/perps';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { getTickerHistory } from '@/lib/perps/service/read';

// GET /api/markets/perps/tickers/{ticker}/history — mark and index price points, funding history
export const GET = route(perpsHistory, async ({ params, query }) => getTickerHistory(params.ticker, query.range));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
