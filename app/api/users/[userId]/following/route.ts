import { usersFollowing } from '@/lib/contracts/follows';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { listFollowing } from '@/lib/social/service/follows';

// GET /api/users/{userId}/following — followed users
export const GET = route(usersFollowing, async ({ params, query, principal }) => listFollowing(params.userId, query, principal?.userId ?? null));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
