import { usersBlock, usersBlockStatus } from '@/lib/contracts/moderation';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { getBlockStatus, setBlock } from '@/lib/moderation/service/blocks';

// POST /api/users/{userId}/block — block or unblock ({action})
export const POST = route(usersBlock, async ({ params, body, caller }) => setBlock({ caller, userId: params.userId, ...body }));

// GET /api/users/{userId}/block — block status
export const GET = route(usersBlockStatus, async ({ params, caller }) => getBlockStatus({ caller, userId: params.userId }));

// PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
