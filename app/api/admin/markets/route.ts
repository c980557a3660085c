import { adminCreateMarket } from '@/lib/contracts/markets';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { createMarket } from '@/lib/markets/service/create-market';

// POST /api/admin/markets — create a question
export const POST = route(adminCreateMarket, async ({ body, caller }) => ({
  market: await createMarket({ caller, ...body }),
}));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
