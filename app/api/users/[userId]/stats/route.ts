import { usersStats } from '@/lib/contracts/users';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { getUserStats } from '@/lib/users/service/read-profile';

// GET /api/users/{userId}/stats
export const GET = route(usersStats, async ({ params }) => ({ stats: await getUserStats(params.userId) }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
