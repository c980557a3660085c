import { handleA2a } from '@/lib/a2a/transport';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';

// POST /api/a2a — A2A, JSON-RPC 2.0 (bearer token)
export const POST = handleA2a;

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
