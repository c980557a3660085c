import { actorStats } from '@/lib/contracts/world';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { getActorStats } from '@/lib/world/service';

// GET /api/actors/{actorId}/stats — an NPC actor's posts, follows, trades, positions and PnL
export const GET = route(actorStats, async ({ params }) => getActorStats(params.actorId));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
