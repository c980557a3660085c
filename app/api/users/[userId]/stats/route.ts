import { usersStats } from '@/lib/contracts/users';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { getUserStatsWithNumbers } from '@/lib/equity/answers';

// GET /api/users/{userId}/stats
export const GET = route(usersStats, async ({ params }) => ({ stats: await getUserStatsWithNumbers(params.userId) }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
