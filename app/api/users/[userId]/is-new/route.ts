import { usersIsNew } from '@/lib/contracts/users';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { getIsNew } from '@/lib/users/service/onboarding';

// GET /api/users/{userId}/is-new — whether profile setup is still needed
export const GET = route(usersIsNew, async ({ params, caller }) =>
  getIsNew({ caller, userId: params.userId }),
);

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
