import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { pointsTransfer } from '@/lib/contracts/points';
import { route } from '@/lib/http/route';
import { transferPoints } from '@/lib/points/service/transfer-points';

// POST /api/points/transfer — the caller's points to another player
export const POST = route(pointsTransfer, async ({ body, caller }) => transferPoints({ caller, ...body }));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
