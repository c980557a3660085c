import { marketsPositions } from '@/lib/contracts/markets';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { getUserPositions } from '@/lib/markets/service/read-markets';

// GET /api/markets/positions/{userId} — a user's open positions
export const GET = route(marketsPositions, async ({ params }) => getUserPositions(params.userId));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
