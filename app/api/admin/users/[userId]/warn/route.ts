import { adminWarnUser } from '@/lib/contracts/admin';
import { warnUser } from '@/lib/admin/service/moderate-content';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// POST /api/admin/users/{userId}/warn — warn a user with a reason (moderators and administrators)
export const POST = route(adminWarnUser, async ({ params, body, caller }) => warnUser({ caller, userId: params.userId, ...body }));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
