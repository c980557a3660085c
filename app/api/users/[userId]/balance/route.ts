import { usersBalance } from '@/lib/contracts/users';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { getBalanceWithNumbers } from '@/lib/equity/answers';

// GET /api/users/{userId}/balance — owner only
export const GET = route(usersBalance, async ({ params, query, caller }) =>
  getBalanceWithNumbers({ caller, userId: params.userId, ...query }),
);

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
