import { predictionsSell } from '@/lib/contracts/markets';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { sellShares } from '@/lib/markets/service/sell-shares';
import { runOrPreview } from '@/lib/operations/dry-run';

// POST /api/markets/predictions/{id}/sell — sell by positionId, or by outcome (dryRun: what the sale would do, nothing changes)
export const POST = route(predictionsSell, async ({ params, body: { dryRun, ...body }, caller }) =>
  runOrPreview(dryRun, () => sellShares({ caller, marketId: params.id, ...body })),
);

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
