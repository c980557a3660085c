import { orderCancel } from '@/lib/contracts/orders';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { cancelOrder } from '@/lib/orders/service';

// DELETE /api/markets/orders/{orderId} — cancel one of your open orders (its reserve refunded)
export const DELETE = route(orderCancel, async ({ params, caller }) => cancelOrder({ caller, orderId: params.orderId }));

// GET, POST, PUT, PATCH: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, POST, PUT, PATCH, OPTIONS } = methodNotAllowedHandlers;
