import { perpsUserPositions } from '@/lib/contracts/perps';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { listUserPerpPositions } from '@/lib/perps/service/read';

// GET /api/markets/perps/positions — the caller's positions (open, or closed with results)
export const GET = route(perpsUserPositions, async ({ query, caller }) => ({
  positions: await listUserPerpPositions({ caller, ...query }),
}));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
