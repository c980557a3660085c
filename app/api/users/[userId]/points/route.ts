import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { pointsHistory } from '@/lib/contracts/points';
import { readPoints } from '@/lib/points/service/read-points';
import { route } from '@/lib/http/route';

// GET /api/users/{userId}/points — owner only
export const GET = route(pointsHistory, async ({ params, query, caller }) =>
  readPoints({ caller, userId: params.userId, limit: query.limit, before: query.before }),
);

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
