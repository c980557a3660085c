import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { onboardingVerifyShare } from '@/lib/contracts/onboarding';
import { route } from '@/lib/http/route';
import { verifyShare } from '@/lib/onboarding/service/social';

// POST /api/users/{userId}/verify-share — own account only
export const POST = route(onboardingVerifyShare, async ({ params, body, caller }) => verifyShare({ caller, userId: params.userId, ...body }));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
