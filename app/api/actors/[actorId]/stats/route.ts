import { actorStats } from '@/lib/contracts/world';
import { route } from '@/lib/http/route';
import { getActorStats } from '@/lib/world/service';

// GET /api/actors/{actorId}/stats — an NPC actor's posts, follows, trades, positions and PnL
export const GET = route(actorStats, async ({ params }) => getActorStats(params.actorId));
