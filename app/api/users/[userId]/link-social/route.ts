import { linkSocial } from '@/lib/onboarding/service/social';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { onboardingLinkSocial } from '@/lib/contracts/onboarding';
import { route } from '@/lib/http/route';

// POST /api/users/{userId}/link-social — own account only
export const POST = route(onboardingLinkSocial, async ({ params, body, caller }) => linkSocial({ caller, userId: params.userId, ...body }));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
