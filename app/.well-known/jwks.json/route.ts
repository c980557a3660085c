import { agentCardJwks } from '@/lib/a2a/card-signing';
import { a2aJwks } from '@/lib/contracts/a2a';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// GET /.well-known/jwks.json — public: the keys the agent card's signatures verify with
export const GET = route(a2aJwks, async () => agentCardJwks());

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
