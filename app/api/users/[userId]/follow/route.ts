import { usersFollow, usersFollowStatus, usersUnfollow } from '@/lib/contracts/follows';
import { followStatus, followUser, unfollowUser } from '@/lib/follows/service';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// POST /api/users/{userId}/follow — follow
export const POST = route(usersFollow, async ({ params, caller }) => followUser({ caller, userId: params.userId }));

// DELETE /api/users/{userId}/follow — unfollow
export const DELETE = route(usersUnfollow, async ({ params, caller }) => unfollowUser({ caller, userId: params.userId }));

// GET /api/users/{userId}/follow — follow status
export const GET = route(usersFollowStatus, async ({ params, caller }) => followStatus({ caller, userId: params.userId }));

// PUT, PATCH: 405 with Allow; OPTIONS: the CORS preflight
export const { PUT, PATCH, OPTIONS } = methodNotAllowedHandlers;
