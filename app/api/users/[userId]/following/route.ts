import { usersFollowing } from '@/lib/contracts/follows';
import { listFollowing } from '@/lib/follows/service';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// GET /api/users/{userId}/following — followed users
export const GET = route(usersFollowing, async ({ params, query, caller }) => listFollowing({ caller, userId: params.userId, ...query }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
