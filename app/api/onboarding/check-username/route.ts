import { onboardingCheckUsername } from '@/lib/contracts/users';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { checkUsername } from '@/lib/users/service/onboarding';

// GET /api/onboarding/check-username?username=
export const GET = route(onboardingCheckUsername, async ({ query, caller }) =>
  checkUsername({ caller, username: query.username }),
);

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
