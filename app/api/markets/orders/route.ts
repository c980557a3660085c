import { ordersList } from '@/lib/contracts/orders';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { listOrders } from '@/lib/orders/service';

// GET /api/markets/orders — the caller's orders of both kinds, newest first
export const GET = route(ordersList, async ({ query, caller }) => listOrders({ caller, ...query }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
