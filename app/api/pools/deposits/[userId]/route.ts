import { poolsUserDeposits } from '@/lib/contracts/pools';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { listUserDeposits } from '@/lib/pools/service/read';

// GET /api/pools/deposits/{userId} — the user's lots (owner or administrator only)
export const GET = route(poolsUserDeposits, async ({ caller, params }) => listUserDeposits({ caller, userId: params.userId }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
