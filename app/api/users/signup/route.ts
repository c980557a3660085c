import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { onboardingSignup } from '@/lib/contracts/onboarding';
import { route } from '@/lib/http/route';
import { signup } from '@/lib/onboarding/service/signup';

// POST /api/users/signup — completes the token user's off-chain profile
export const POST = route(onboardingSignup, async ({ body, caller }) => signup({ caller, ...body }));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
