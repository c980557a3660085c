import { commentsReply } from '@/lib/contracts/comments';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { replyToComment } from '@/lib/social/service/comments';

// POST /api/comments/{id}/replies — reply to a comment
export const POST = route(commentsReply, async ({ params, body, principal }) =>
  replyToComment({ commentId: params.id, authorId: principal.userId, authorUsername: principal.username, content: body.content }),
);

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
