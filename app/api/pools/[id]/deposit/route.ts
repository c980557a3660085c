import { poolsDeposit } from '@/lib/contracts/pools';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { runOrPreview } from '@/lib/operations/dry-run';
import { depositToPool } from '@/lib/pools/service/deposit';

// POST /api/pools/{id}/deposit — buy shares at the current share price (dryRun: what the deposit would do, nothing changes)
export const POST = route(poolsDeposit, async ({ caller, params, body }) =>
  runOrPreview(body.dryRun, () => depositToPool({ caller, poolId: params.id, amount: body.amount })),
);

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
