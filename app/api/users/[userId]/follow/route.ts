import { usersFollow, usersFollowStatus, usersUnfollow } from '@/lib/contracts/follows';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { followStatus, followUser, unfollowUser } from '@/lib/social/service/follows';

// POST /api/users/{userId}/follow — follow
export const POST = route(usersFollow, async ({ params, principal }) => followUser({ id: principal.userId, username: principal.username }, params.userId));

// DELETE /api/users/{userId}/follow — unfollow
export const DELETE = route(usersUnfollow, async ({ params, principal }) => unfollowUser(principal.userId, params.userId));

// GET /api/users/{userId}/follow — follow status
export const GET = route(usersFollowStatus, async ({ params, principal }) => followStatus(principal.userId, params.userId));

// PUT, PATCH: 405 with Allow; OPTIONS: the CORS preflight
export const { PUT, PATCH, OPTIONS } = methodNotAllowedHandlers;
