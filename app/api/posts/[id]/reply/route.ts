import { postsReply } from '@/lib/contracts/comments';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { addComment } from '@/lib/social/service/comments';

// POST /api/posts/{id}/reply — nested reply on a post
export const POST = route(postsReply, async ({ params, body, principal }) =>
  addComment({ postId: params.id, authorId: principal.userId, authorUsername: principal.username, content: body.content, parentCommentId: body.parentId ?? body.parentCommentId }),
);

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
