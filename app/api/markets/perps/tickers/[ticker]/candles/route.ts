import { perpsCandles } from '@/lib/contracts/perps';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { getTickerCandles } from '@/lib/perps/service/read-candles';

// GET /api/markets/perps/tickers/{ticker}/candles — the mark price as OHLC candles per interval
export const GET = route(perpsCandles, async ({ params, query }) => getTickerCandles({ ticker: params.ticker, ...query }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
