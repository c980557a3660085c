import { registryList } from '@/lib/contracts/registry';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { publicOrigin } from '@/lib/system/public-origin';
import { listRegistry } from '@/lib/registry/service/registry';

// GET /api/registry?type&search&page&pageSize — public
export const GET = route(registryList, async ({ query, req }) => listRegistry({ ...query, origin: publicOrigin(req.headers, req.url) }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
