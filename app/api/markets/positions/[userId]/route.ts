import { marketsPositions } from '@/lib/contracts/markets';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { getPositionsWithNumbers } from '@/lib/equity/answers';

// GET /api/markets/positions/{userId} — a user's open positions
export const GET = route(marketsPositions, async ({ params, caller }) => getPositionsWithNumbers(params.userId, caller));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
