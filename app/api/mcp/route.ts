import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { handleMcp } from '@/lib/mcp/transport';

// POST /api/mcp — the Model Context Protocol, Streamable HTTP (bearer: an API key or an access token)
export const POST = handleMcp;

// GET (no server-sent event stream: 405, as MCP allows), DELETE (no session to end: 405), PUT, PATCH; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
