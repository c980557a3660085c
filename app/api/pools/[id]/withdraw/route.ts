import { poolsWithdraw } from '@/lib/contracts/pools';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { runOrPreview } from '@/lib/operations/dry-run';
import { withdrawFromPool } from '@/lib/pools/service/withdraw';

// POST /api/pools/{id}/withdraw — sell shares of one deposit back at the share price (dryRun: preview)
export const POST = route(poolsWithdraw, async ({ caller, params, body }) =>
  runOrPreview(body.dryRun, () => withdrawFromPool({ caller, poolId: params.id, depositId: body.depositId, shares: body.shares })),
);

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
