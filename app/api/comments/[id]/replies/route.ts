import { replyToComment } from '@/lib/comments/service/add-comment';
import { commentsReply } from '@/lib/contracts/comments';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// POST /api/comments/{id}/replies — reply to a comment
export const POST = route(commentsReply, async ({ params, body, caller }) =>
  replyToComment({ caller, commentId: params.id, content: body.content }),
);

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
