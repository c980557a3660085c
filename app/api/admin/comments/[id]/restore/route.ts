import { adminCommentRestore } from '@/lib/contracts/admin';
import { moderateComment } from '@/lib/admin/service/moderate-content';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// POST /api/admin/comments/{id}/restore — restore a removed comment (moderators and administrators)
export const POST = route(adminCommentRestore, async ({ params, body, caller }) => moderateComment({ caller, id: params.id, action: 'restore', ...body }));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
