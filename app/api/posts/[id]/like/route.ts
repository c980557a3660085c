import { postsLike, postsUnlike } from '@/lib/contracts/posts';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { likePost, unlikePost } from '@/lib/posts/service/like-post';

// POST /api/posts/{id}/like — like
export const POST = route(postsLike, async ({ params, caller }) => likePost({ caller, postId: params.id }));

// DELETE /api/posts/{id}/like — unlike
export const DELETE = route(postsUnlike, async ({ params, caller }) => unlikePost({ caller, postId: params.id }));

// GET, PUT, PATCH: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, OPTIONS } = methodNotAllowedHandlers;
