import { userLeagueHistory } from '@/lib/contracts/leagues';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { readLeagueHistory } from '@/lib/leagues/service/read-leagues';

// GET /api/users/{userId}/leagues — public: a player's seasons
export const GET = route(userLeagueHistory, async ({ params }) => readLeagueHistory(params.userId));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
