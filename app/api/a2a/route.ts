import { handleA2a as untimedA2a } from '@/lib/a2a/transport';
import { a2aRpc } from '@/lib/contracts/a2a';
import { timed } from '@/lib/metrics/recorder';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';

// POST /api/a2a — A2A, JSON-RPC 2.0 (bearer token); its latency is the 'agent' group's (lib/metrics)
const handleA2a = timed(a2aRpc, untimedA2a);
export const POST = handleA2a;

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
