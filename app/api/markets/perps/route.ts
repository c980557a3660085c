import { perpsList } from '@/lib/contracts/perps';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { listTickers } from '@/lib/perps/service/read';

// GET /api/markets/perps — every ticker with price, 24 h change, funding rate and open interest
export const GET = route(perpsList, async () => listTickers());

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
