import { addComment } from '@/lib/comments/service/add-comment';
import { postsReply } from '@/lib/contracts/comments';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// POST /api/posts/{id}/reply — nested reply on a post
export const POST = route(postsReply, async ({ params, body, caller }) =>
  addComment({ caller, postId: params.id, content: body.content, parentCommentId: body.parentId ?? body.parentCommentId }),
);

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
