import { commentsReply } from '@/lib/contracts/social';
import { route } from '@/lib/http/route';
import { replyToComment } from '@/lib/social/service/comments';

// POST /api/comments/{id}/replies — reply to a comment
export const POST = route(commentsReply, async ({ params, body, principal }) =>
  replyToComment({ commentId: params.id, authorId: principal.userId, authorUsername: principal.username, content: body.content }),
);
