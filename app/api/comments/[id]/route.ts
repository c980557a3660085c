import { deleteComment } from '@/lib/comments/service/delete-comment';
import { editComment } from '@/lib/comments/service/edit-comment';
import { commentsDelete, commentsUpdate } from '@/lib/contracts/comments';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// PATCH /api/comments/{id} — edit (author only)
export const PATCH = route(commentsUpdate, async ({ params, body, caller }) => editComment({ caller, commentId: params.id, content: body.content }));

// DELETE /api/comments/{id} — delete (author only)
export const DELETE = route(commentsDelete, async ({ params, caller }) => deleteComment({ caller, commentId: params.id }));

// GET, POST, PUT: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, POST, PUT, OPTIONS } = methodNotAllowedHandlers;
