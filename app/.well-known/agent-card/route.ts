import { buildAgentCard } from '@/lib/a2a/agent-card';
import { signAgentCard } from '@/lib/a2a/card-signing';
import { a2aAgentCardAlias } from '@/lib/contracts/a2a';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { publicOrigin } from '@/lib/system/public-origin';
import pkg from '@/package.json';

// GET /.well-known/agent-card — public: the same card (older clients ask here)
export const GET = route(a2aAgentCardAlias, async ({ req }) => {
  const origin = publicOrigin(req.headers, req.url);
  return signAgentCard(buildAgentCard({ origin, version: pkg.version }), { origin });
});

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
