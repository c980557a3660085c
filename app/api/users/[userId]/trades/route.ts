import { usersTrades } from '@/lib/contracts/track-record';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { listUserTrades } from '@/lib/track-record/service';

// GET /api/users/{userId}/trades — a user's trades, newest first, by page
export const GET = route(usersTrades, async ({ params, query }) => listUserTrades({ userId: params.userId, ...query }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
