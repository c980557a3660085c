import { systemOpenApi } from '@/lib/contracts/system';
import { route } from '@/lib/http/route';
import { buildOpenApiDocument } from '@/lib/openapi/document';
import pkg from '@/package.json';

// GET /api/openapi.json — built from the endpoint registry
export const GET = route(systemOpenApi, async () => buildOpenApiDocument(pkg.version));
