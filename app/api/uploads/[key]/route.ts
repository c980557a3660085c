import { mediaGet } from '@/lib/contracts/uploads';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { serveUpload } from '@/lib/uploads/service';

// GET /api/uploads/{key} — the stored image bytes, immutable
export const GET = route(mediaGet, async ({ params, req }) => serveUpload(params.key, req));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
