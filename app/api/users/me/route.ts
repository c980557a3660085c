import { usersMe } from '@/lib/contracts/users';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { getCurrentUser } from '@/lib/users/service/read-profile';

// GET /api/users/me — the authenticated user, created on first request
export const GET = route(usersMe, async ({ caller, principal }) => ({
  // The row sign-in already loaded: the answer needs no second read.
  user: await getCurrentUser({ caller, user: principal.user }),
}));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
