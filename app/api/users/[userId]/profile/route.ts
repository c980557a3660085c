import { usersProfile } from '@/lib/contracts/users';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { getProfileWithNumbers } from '@/lib/equity/answers';

// GET /api/users/{userId}/profile — by id, username or wallet address
export const GET = route(usersProfile, async ({ params, caller }) => ({
  user: await getProfileWithNumbers({ caller, userId: params.userId }),
}));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
