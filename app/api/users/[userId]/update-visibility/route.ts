import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { onboardingUpdateVisibility } from '@/lib/contracts/onboarding';
import { route } from '@/lib/http/route';
import { updateVisibility } from '@/lib/onboarding/service/social';

// POST /api/users/{userId}/update-visibility — own account only
export const POST = route(onboardingUpdateVisibility, async ({ params, body, caller }) => updateVisibility({ caller, userId: params.userId, ...body }));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
