import { registryAppCreate } from '@/lib/contracts/registry';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { publicOrigin } from '@/lib/system/public-origin';
import { registerApp } from '@/lib/registry/service/registry';

// POST /api/admin/registry/apps — administrators register a third-party app
export const POST = route(registryAppCreate, async ({ body, caller, req }) => registerApp({ caller, ...body, origin: publicOrigin(req.headers, req.url) }));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
