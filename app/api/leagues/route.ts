import { leaguesOverview } from '@/lib/contracts/leagues';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { readLeaguesOverview } from '@/lib/leagues/service/read-leagues';

// GET /api/leagues — public; with a token, the caller's tier and division
export const GET = route(leaguesOverview, async ({ caller }) => readLeaguesOverview(caller?.userId));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
