import { adminPerpPrice } from '@/lib/contracts/perps';
import { route } from '@/lib/http/route';
import { setMarkPrice } from '@/lib/perps/service/set-price';

// POST /api/admin/perps/{ticker}/price — set the mark; due liquidations run before the answer
export const POST = route(adminPerpPrice, async ({ params, body }) => setMarkPrice({ ticker: params.ticker, price: body.price }));
