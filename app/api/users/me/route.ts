import { usersMe } from '@/lib/contracts/users';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { getCurrentUserWithNumbers } from '@/lib/equity/answers';

// GET /api/users/me — the authenticated user, created on first request
export const GET = route(usersMe, async ({ caller, principal }) => ({
  // The row sign-in already loaded: the answer needs no second read.
  user: await getCurrentUserWithNumbers({ caller, user: principal.user }),
}));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
