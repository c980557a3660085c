import { commentsDelete, commentsUpdate } from '@/lib/contracts/comments';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { deleteComment, editComment } from '@/lib/social/service/comments';

// PATCH /api/comments/{id} — edit (author only)
export const PATCH = route(commentsUpdate, async ({ params, body, principal }) => editComment({ commentId: params.id, userId: principal.userId, content: body.content }));

// DELETE /api/comments/{id} — delete (author only)
export const DELETE = route(commentsDelete, async ({ params, principal }) => deleteComment({ commentId: params.id, userId: principal.userId }));

// GET, POST, PUT: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, POST, PUT, OPTIONS } = methodNotAllowedHandlers;
