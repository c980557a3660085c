import { perpOrderPlace } from '@/lib/contracts/orders';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { placePerpOrder } from '@/lib/perps/service/orders';

// POST /api/markets/perps/orders — place a stop-loss, take-profit or limit order on a perpetual
export const POST = route(perpOrderPlace, async ({ body, caller }) => placePerpOrder({ caller, ...body }));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
