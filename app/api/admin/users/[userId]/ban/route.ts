import { adminBanUser } from '@/lib/contracts/admin';
import { banUser } from '@/lib/admin/service/ban-user';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// POST /api/admin/users/{userId}/ban — ban (default) or unban
export const POST = route(adminBanUser, async ({ params, body, caller }) => banUser({ caller, userId: params.userId, ...body }));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
