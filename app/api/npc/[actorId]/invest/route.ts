import { npcInvest } from '@/lib/contracts/pools';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { investWithActor } from '@/lib/pools/service/invest';

// POST /api/npc/{actorId}/invest — deposit into, or withdraw an amount from, the pool the actor manages
export const POST = route(npcInvest, async ({ caller, params, body }) => investWithActor({ caller, actorId: params.actorId, ...body }));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
