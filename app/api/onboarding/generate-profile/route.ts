import { onboardingGenerateProfile } from '@/lib/contracts/users';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { suggestProfile } from '@/lib/users/service/onboarding';

// GET /api/onboarding/generate-profile — a random profile suggestion
export const GET = route(onboardingGenerateProfile, async () => suggestProfile());

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
