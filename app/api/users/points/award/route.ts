import { awardPoints } from '@/lib/points/service/award-points';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { pointsAward } from '@/lib/contracts/points';
import { route } from '@/lib/http/route';

// POST /api/users/points/award — administrators only
export const POST = route(pointsAward, async ({ body, caller }) => awardPoints({ caller, ...body }));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
