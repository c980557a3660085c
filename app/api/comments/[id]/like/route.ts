import { likeComment, unlikeComment } from '@/lib/comments/service/like-comment';
import { commentsLike, commentsUnlike } from '@/lib/contracts/comments';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// POST /api/comments/{id}/like — like a comment
export const POST = route(commentsLike, async ({ params, caller }) => likeComment({ caller, commentId: params.id }));

// DELETE /api/comments/{id}/like — unlike a comment
export const DELETE = route(commentsUnlike, async ({ params, caller }) => unlikeComment({ caller, commentId: params.id }));

// GET, PUT, PATCH: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, OPTIONS } = methodNotAllowedHandlers;
