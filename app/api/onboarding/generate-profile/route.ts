import { onboardingGenerateProfile } from '@/lib/contracts/users';
import { route } from '@/lib/http/route';
import { suggestProfile } from '@/lib/users/service';

// GET /api/onboarding/generate-profile — a random profile suggestion
export const GET = route(onboardingGenerateProfile, async () => suggestProfile());
