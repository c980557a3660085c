import { poolsList } from '@/lib/contracts/pools';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { listPools } from '@/lib/pools/service/read';

// GET /api/pools — every pool with NAV, share price, 24 h change and volume; the caller's stake with a token
export const GET = route(poolsList, async ({ caller, query }) => listPools({ caller, tier: query.tier }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
