import { postsShare, postsUnshare } from '@/lib/contracts/posts';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { sharePost, unsharePost } from '@/lib/posts/service/share-post';

// POST /api/posts/{id}/share — share (repost)
export const POST = route(postsShare, async ({ params, body, caller }) =>
  sharePost({ caller, postId: params.id, quote: body.quoteComment ?? body.quote ?? null }),
);

// DELETE /api/posts/{id}/share — unshare
export const DELETE = route(postsUnshare, async ({ params, caller }) => unsharePost({ caller, postId: params.id }));

// GET, PUT, PATCH: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, OPTIONS } = methodNotAllowedHandlers;
