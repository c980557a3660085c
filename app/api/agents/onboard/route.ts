import { identityAgentOnboard, identityAgentOnboardStatus } from '@/lib/contracts/identity';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { onboardAgent } from '@/lib/identity/service/registration';
import { route } from '@/lib/http/route';

// GET /api/agents/onboard — the agent's registration status
export const GET = route(identityAgentOnboardStatus, async ({ caller }) => onboardAgent({ caller, start: false }));

// POST /api/agents/onboard — registers the authenticated agent
export const POST = route(identityAgentOnboard, async ({ caller }) => onboardAgent({ caller, start: true }));

// PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
