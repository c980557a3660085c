import { uploadImage as uploadImageEndpoint } from '@/lib/contracts/uploads';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { requestOrigin, uploadImage } from '@/lib/uploads/service';

// POST /api/upload/image — store an image (checked by content, re-encoded without metadata)
export const POST = route(uploadImageEndpoint, async ({ req, caller, body, form }) =>
  uploadImage({ caller, kind: body.type, form, origin: requestOrigin(req) }),
);

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
