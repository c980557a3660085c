import { onboardingCheckUsername } from '@/lib/contracts/users';
import { route } from '@/lib/http/route';
import { checkUsername } from '@/lib/users/service';

// GET /api/onboarding/check-username?username=
export const GET = route(onboardingCheckUsername, async ({ query, principal }) =>
  checkUsername(query.username, principal?.userId),
);
