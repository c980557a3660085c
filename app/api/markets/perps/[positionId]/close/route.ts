import { perpsClose } from '@/lib/contracts/perps';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { runOrPreview } from '@/lib/operations/dry-run';
import { closePosition } from '@/lib/perps/service/close-position';

// POST /api/markets/perps/{positionId}/close — close at the mark (body optional; dryRun: what closing would do, nothing changes)
export const POST = route(perpsClose, async ({ params, body, caller }) =>
  runOrPreview(body.dryRun, () => closePosition({ caller, positionId: params.positionId })),
);

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
