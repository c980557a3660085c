import { usersUpdateProfile } from '@/lib/contracts/users';
import { route } from '@/lib/http/route';
import { updateProfile } from '@/lib/users/service';

// POST /api/users/{userId}/update-profile — own profile only
export const POST = route(usersUpdateProfile, async ({ params, principal, body }) => ({
  user: await updateProfile({ actorId: principal.userId, userId: params.userId, input: body }),
}));
