import { perpsOpen } from '@/lib/contracts/perps';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { runOrPreview } from '@/lib/operations/dry-run';
import { openPosition } from '@/lib/perps/service/open-position';

// POST /api/markets/perps/open — open a leveraged long or short (dryRun: what opening would do, nothing changes)
export const POST = route(perpsOpen, async ({ body: { dryRun, ...body }, caller }) => runOrPreview(dryRun, () => openPosition({ caller, ...body })));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
