import { usersMe } from '@/lib/contracts/users';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { getCurrentUser } from '@/lib/users/service';

// GET /api/users/me — the authenticated user, created on first request
export const GET = route(usersMe, async ({ principal }) => ({
  user: await getCurrentUser(principal.user, principal.isAdmin),
}));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
