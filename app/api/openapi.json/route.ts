import { systemOpenApi } from '@/lib/contracts/system';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { getOpenApiDocument } from '@/lib/openapi/document';
import pkg from '@/package.json';

// GET /api/openapi.json — built from the endpoint registry (once per process)
export const GET = route(systemOpenApi, async () => getOpenApiDocument(pkg.version));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
