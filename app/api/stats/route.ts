import { statsGet } from '@/lib/contracts/stats';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { getStats } from '@/lib/stats/service';

// GET /api/stats — public, cached for a few seconds
export const GET = route(statsGet, async () => getStats());

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
