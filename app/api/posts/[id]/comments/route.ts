import { commentsCreate, commentsList } from '@/lib/contracts/comments';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { addComment, listComments } from '@/lib/social/service/comments';

// GET /api/posts/{id}/comments — a post's comments, oldest first
export const GET = route(commentsList, async ({ params, principal }) => listComments(params.id, principal?.userId ?? null));

// POST /api/posts/{id}/comments — comment or reply
export const POST = route(commentsCreate, async ({ params, body, principal }) =>
  addComment({ postId: params.id, authorId: principal.userId, authorUsername: principal.username, content: body.content, parentCommentId: body.parentCommentId }),
);

// PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
