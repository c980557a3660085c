import { identityOnchainStatus, identityStartOnchain } from '@/lib/contracts/identity';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { readRegistration, startOnchainRegistration } from '@/lib/identity/service/registration';
import { route } from '@/lib/http/route';

// GET /api/users/onboarding/onchain — the caller's registration status
export const GET = route(identityOnchainStatus, async ({ caller }) => readRegistration(caller.userId));

// POST /api/users/onboarding/onchain — starts (or answers) the caller's registration
export const POST = route(identityStartOnchain, async ({ caller }) => startOnchainRegistration({ caller }));

// PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
