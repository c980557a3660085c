import { sseStats } from '@/lib/contracts/realtime';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { getSseStats } from '@/lib/realtime';

// GET /api/sse/stats — connected SSE clients on this instance, per channel
export const GET = route(sseStats, async () => getSseStats());

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
