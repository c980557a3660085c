import { mediaGet } from '@/lib/contracts/media';
import { route } from '@/lib/http/route';
import { serveUpload } from '@/lib/uploads/service';

// GET /api/uploads/{key} — the stored image bytes, immutable
export const GET = route(mediaGet, async ({ params, req }) => serveUpload(params.key, req));
