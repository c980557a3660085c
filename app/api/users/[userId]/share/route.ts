import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { onboardingShare } from '@/lib/contracts/onboarding';
import { recordShare } from '@/lib/onboarding/service/social';
import { route } from '@/lib/http/route';

// POST /api/users/{userId}/share — own account only
export const POST = route(onboardingShare, async ({ params, body, caller }) => recordShare({ caller, userId: params.userId, ...body }));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
