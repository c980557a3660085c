import { addComment } from '@/lib/comments/service/add-comment';
import { listComments } from '@/lib/comments/service/read-comments';
import { commentsCreate, commentsList } from '@/lib/contracts/comments';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// GET /api/posts/{id}/comments — a post's comments, oldest first
export const GET = route(commentsList, async ({ params, caller }) => listComments({ caller, postId: params.id }));

// POST /api/posts/{id}/comments — comment or reply
export const POST = route(commentsCreate, async ({ params, body, caller }) =>
  addComment({ caller, postId: params.id, content: body.content, parentCommentId: body.parentCommentId }),
);

// PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
