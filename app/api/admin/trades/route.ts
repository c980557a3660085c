import { adminTrades } from '@/lib/contracts/admin';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { listTrades } from '@/lib/markets/service/read-markets';

// GET /api/admin/trades — every trade, newest first (the trade feed's own service: it hides nothing)
export const GET = route(adminTrades, async ({ query }) => listTrades(query));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
