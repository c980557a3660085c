import { adminPerpPrice } from '@/lib/contracts/perps';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { setMarkPrice } from '@/lib/perps/service/set-price';

// POST /api/admin/perps/{ticker}/price — set the mark; due liquidations run before the answer
export const POST = route(adminPerpPrice, async ({ params, body }) => setMarkPrice({ ticker: params.ticker, price: body.price }));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
