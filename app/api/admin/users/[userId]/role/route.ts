import { adminSetRole } from '@/lib/contracts/admin';
import { setUserRole } from '@/lib/admin/service/set-role';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// POST /api/admin/users/{userId}/role — administrator, moderator or plain user
export const POST = route(adminSetRole, async ({ params, body, caller }) => setUserRole({ caller, userId: params.userId, role: body.role }));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
