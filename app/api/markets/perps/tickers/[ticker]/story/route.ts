import { tickerStories } from '@/lib/contracts/storylines';
import { getTickerStories } from '@/lib/storylines/read';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// GET /api/markets/perps/tickers/{ticker}/story — a ticker's developing and newest resolved storylines
export const GET = route(tickerStories, async ({ params }) => getTickerStories(params.ticker));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
