import { usersUpdateProfile } from '@/lib/contracts/users';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { updateProfile } from '@/lib/users/service/update-profile';

// POST /api/users/{userId}/update-profile — own profile only
export const POST = route(usersUpdateProfile, async ({ params, caller, body }) => ({
  user: await updateProfile({ caller, userId: params.userId, ...body }),
}));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
