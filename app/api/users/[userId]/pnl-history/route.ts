import { usersPnlHistory } from '@/lib/contracts/track-record';
import { getPnlHistory } from '@/lib/equity/history';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// GET /api/users/{userId}/pnl-history?range=day|week|month|all — public (equity figures for the owner and administrators)
export const GET = route(usersPnlHistory, async ({ params, query, caller }) => getPnlHistory({ caller, userId: params.userId, range: query.range }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
