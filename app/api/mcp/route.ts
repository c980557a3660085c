import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { mcpRpc } from '@/lib/contracts/mcp';
import { timed } from '@/lib/metrics/recorder';
import { handleMcp as untimedMcp } from '@/lib/mcp/transport';

// POST /api/mcp — the Model Context Protocol, Streamable HTTP (bearer: an API key or an access token); latency: the 'agent' group's
const handleMcp = timed(mcpRpc, untimedMcp);
export const POST = handleMcp;

// GET (no server-sent event stream: 405, as MCP allows), DELETE (no session to end: 405), PUT, PATCH; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
