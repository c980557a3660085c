import { perpsTickerTrades } from '@/lib/contracts/perps';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { listTickerTrades } from '@/lib/perps/service/read-trades';

// GET /api/markets/perps/tickers/{ticker}/trades — the ticker's recent-trades tape, newest first
export const GET = route(perpsTickerTrades, async ({ params, query, caller }) => listTickerTrades({ ticker: params.ticker, limit: query.limit, caller }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
