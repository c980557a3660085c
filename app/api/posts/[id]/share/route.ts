import { postsShare, postsUnshare } from '@/lib/contracts/posts';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { sharePost, unsharePost } from '@/lib/social/service/reactions';

// POST /api/posts/{id}/share — share (repost)
export const POST = route(postsShare, async ({ params, body, principal }) =>
  sharePost(params.id, { id: principal.userId, username: principal.username }, body.quoteComment ?? body.quote ?? null),
);

// DELETE /api/posts/{id}/share — unshare
export const DELETE = route(postsUnshare, async ({ params, principal }) => unsharePost(params.id, principal.userId));

// GET, PUT, PATCH: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, OPTIONS } = methodNotAllowedHandlers;
