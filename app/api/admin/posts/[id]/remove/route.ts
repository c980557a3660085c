import { adminPostRemove } from '@/lib/contracts/admin';
import { moderatePost } from '@/lib/admin/service/moderate-content';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// POST /api/admin/posts/{id}/remove — remove a post with a reason (moderators and administrators)
export const POST = route(adminPostRemove, async ({ params, body, caller }) => moderatePost({ caller, id: params.id, action: 'remove', ...body }));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
