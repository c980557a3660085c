import { adminCommentRemove } from '@/lib/contracts/admin';
import { moderateComment } from '@/lib/admin/service/moderate-content';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// POST /api/admin/comments/{id}/remove — remove a comment with a reason (moderators and administrators)
export const POST = route(adminCommentRemove, async ({ params, body, caller }) => moderateComment({ caller, id: params.id, action: 'remove', ...body }));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
