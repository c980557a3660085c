import { leaderboardGet } from '@/lib/contracts/standings';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { readLeaderboard } from '@/lib/standings/service/read-leaderboard';

// GET /api/leaderboard?page&pageSize&pointsType — public; with a token, the caller's entry as `me`
export const GET = route(leaderboardGet, async ({ query, caller }) =>
  readLeaderboard({ page: query.page, pageSize: query.pageSize, pointsType: query.pointsType, metric: query.metric, period: query.period, players: query.players, callerId: caller?.userId }),
);

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
