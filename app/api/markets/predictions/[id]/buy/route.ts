import { predictionsBuy } from '@/lib/contracts/markets';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { buyShares } from '@/lib/markets/service/buy-shares';
import { runOrPreview } from '@/lib/operations/dry-run';

// POST /api/markets/predictions/{id}/buy — buy YES or NO shares (dryRun: what the buy would do, nothing changes)
export const POST = route(predictionsBuy, async ({ params, body: { dryRun, ...body }, caller }) =>
  runOrPreview(dryRun, () => buyShares({ caller, marketId: params.id, ...body })),
);

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
