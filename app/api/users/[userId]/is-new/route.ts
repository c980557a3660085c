import { usersIsNew } from '@/lib/contracts/users';
import { route } from '@/lib/http/route';
import { getIsNew } from '@/lib/users/service';

// GET /api/users/{userId}/is-new — whether profile setup is still needed
export const GET = route(usersIsNew, async ({ params, principal }) =>
  getIsNew({ actorId: principal.userId, isAdmin: principal.isAdmin, userId: params.userId }),
);
