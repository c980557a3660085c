import { usersFollowers } from '@/lib/contracts/follows';
import { listFollowers } from '@/lib/follows/service';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// GET /api/users/{userId}/followers — followers
export const GET = route(usersFollowers, async ({ params, query, caller }) => listFollowers({ caller, userId: params.userId, ...query }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
