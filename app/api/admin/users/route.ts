import { adminUsers } from '@/lib/contracts/admin';
import { listUsers } from '@/lib/admin/service/list-users';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// GET /api/admin/users — users with balance, PnL, trades, reports and ban state
export const GET = route(adminUsers, async ({ query, caller }) => listUsers({ caller, query }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
