import { tradesList } from '@/lib/contracts/markets';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { listTrades } from '@/lib/markets/service/read-markets';

// GET /api/trades — recent trades, newest first
export const GET = route(tradesList, async ({ query }) => listTrades(query));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
