import { onboardingCheckUsername } from '@/lib/contracts/users';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { checkUsername } from '@/lib/users/service';

// GET /api/onboarding/check-username?username=
export const GET = route(onboardingCheckUsername, async ({ query, principal }) =>
  checkUsername(query.username, principal?.userId),
);

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
