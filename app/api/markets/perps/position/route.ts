import { perpsCloseByBody } from '@/lib/contracts/perps';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { runOrPreview } from '@/lib/operations/dry-run';
import { closePosition } from '@/lib/perps/service/close-position';

// POST /api/markets/perps/position — close the position named in the body (variant form)
export const POST = route(perpsCloseByBody, async ({ body, caller }) =>
  runOrPreview(body.dryRun, () => closePosition({ caller, positionId: body.positionId })),
);

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
