import { commentsLike, commentsUnlike } from '@/lib/contracts/comments';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { likeComment, unlikeComment } from '@/lib/social/service/reactions';

// POST /api/comments/{id}/like — like a comment
export const POST = route(commentsLike, async ({ params, principal }) => likeComment(params.id, { id: principal.userId, username: principal.username }));

// DELETE /api/comments/{id}/like — unlike a comment
export const DELETE = route(commentsUnlike, async ({ params, principal }) => unlikeComment(params.id, { id: principal.userId, username: principal.username }));

// GET, PUT, PATCH: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, OPTIONS } = methodNotAllowedHandlers;
