import { npcPortfolio } from '@/lib/contracts/pools';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { getNpcPortfolio } from '@/lib/pools/service/read';

// GET /api/npc/{actorId}/portfolio — the portfolio of the pool the actor manages
export const GET = route(npcPortfolio, async ({ params }) => getNpcPortfolio({ actorId: params.actorId }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
