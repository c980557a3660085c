import { poolsDetail } from '@/lib/contracts/pools';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { getPool } from '@/lib/pools/service/read';

// GET /api/pools/{id} — a pool with its NAV history, positions, activity and the caller's lots
export const GET = route(poolsDetail, async ({ caller, params, query }) => getPool({ caller, poolId: params.id, range: query.range }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
