import { adminPostRestore } from '@/lib/contracts/admin';
import { moderatePost } from '@/lib/admin/service/moderate-content';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// POST /api/admin/posts/{id}/restore — restore a removed post (moderators and administrators)
export const POST = route(adminPostRestore, async ({ params, body, caller }) => moderatePost({ caller, id: params.id, action: 'restore', ...body }));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
