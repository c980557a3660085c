import { usersProfile } from '@/lib/contracts/users';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { getProfile } from '@/lib/users/service';

// GET /api/users/{userId}/profile — by id, username or wallet address
export const GET = route(usersProfile, async ({ params, principal }) => ({
  user: await getProfile(params.userId, principal?.userId),
}));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
