import { actorCalibration } from '@/lib/contracts/storylines';
import { getActorCalibration } from '@/lib/storylines/read';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// GET /api/actors/{actorId}/calibration — an NPC's resolved calls, Brier score and rank
export const GET = route(actorCalibration, async ({ params }) => getActorCalibration(params.actorId));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
