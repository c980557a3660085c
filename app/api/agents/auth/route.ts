import { authenticateAgent } from '@/lib/principals/service';
import { agentsAuth } from '@/lib/contracts/system';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// POST /api/agents/auth — agent credentials for a bearer session token
export const POST = route(agentsAuth, async ({ body }) => authenticateAgent(body.agentId, body.agentSecret));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
