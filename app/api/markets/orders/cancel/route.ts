import { ordersCancelMany } from '@/lib/contracts/orders';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { cancelOrders } from '@/lib/orders/service';

// POST /api/markets/orders/cancel — cancel your open orders on a question, a ticker, by client id, or all
export const POST = route(ordersCancelMany, async ({ body, caller }) => cancelOrders({ caller, ...body }));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
