import { leaguesDivision } from '@/lib/contracts/leagues';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { readLeagueDivision } from '@/lib/leagues/service/read-leagues';

// GET /api/leagues/division?season&tier&division — public
export const GET = route(leaguesDivision, async ({ query, caller }) =>
  readLeagueDivision({ season: query.season, tier: query.tier, division: query.division, callerId: caller?.userId }),
);

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
