import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { onboard, onboardingStatus } from '@/lib/onboarding/service/signup';
import { onboardingOnboard, onboardingOnboardLegacy } from '@/lib/contracts/onboarding';
import { route } from '@/lib/http/route';

// GET /api/auth/onboard — legacy: onboards with the fields in the query, or reports the status without them
export const GET = route(onboardingOnboardLegacy, async ({ query, caller }) =>
  query.username && query.displayName ? onboard({ caller, ...query, username: query.username, displayName: query.displayName }) : onboardingStatus({ caller }),
);

// POST /api/auth/onboard — signup, then the on-chain registration
export const POST = route(onboardingOnboard, async ({ body, caller }) => onboard({ caller, ...body }));

// PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
