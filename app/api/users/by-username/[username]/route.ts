import { usersByUsername } from '@/lib/contracts/users';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { getProfileByUsernameWithNumbers } from '@/lib/equity/answers';

// GET /api/users/by-username/{username}
export const GET = route(usersByUsername, async ({ params, caller }) => ({
  user: await getProfileByUsernameWithNumbers({ caller, username: params.username }),
}));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
