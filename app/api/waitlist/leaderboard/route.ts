import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { readWaitlistLeaderboard } from '@/lib/waitlist/service/ranking';
import { route } from '@/lib/http/route';
import { waitlistLeaderboard } from '@/lib/contracts/waitlist';

// GET /api/waitlist/leaderboard?limit= — public
export const GET = route(waitlistLeaderboard, async ({ query }) => readWaitlistLeaderboard({ limit: query.limit }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
