import { usersFollowers } from '@/lib/contracts/follows';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { listFollowers } from '@/lib/social/service/follows';

// GET /api/users/{userId}/followers — followers
export const GET = route(usersFollowers, async ({ params, query, principal }) => listFollowers(params.userId, query, principal?.userId ?? null));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
