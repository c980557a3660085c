import { usersUpdateProfile } from '@/lib/contracts/users';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { updateProfile } from '@/lib/users/service';

// POST /api/users/{userId}/update-profile — own profile only
export const POST = route(usersUpdateProfile, async ({ params, principal, body }) => ({
  user: await updateProfile({ actorId: principal.userId, userId: params.userId, input: body }),
}));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
