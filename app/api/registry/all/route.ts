import { registryAll } from '@/lib/contracts/registry';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { publicOrigin } from '@/lib/system/public-origin';
import { listWholeRegistry } from '@/lib/registry/service/registry';

// GET /api/registry/all?cursor&limit — public, every entry by cursor
export const GET = route(registryAll, async ({ query, req }) => listWholeRegistry({ ...query, origin: publicOrigin(req.headers, req.url) }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
