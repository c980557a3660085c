import { postsLike, postsUnlike } from '@/lib/contracts/posts';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { likePost, unlikePost } from '@/lib/social/service/reactions';

// POST /api/posts/{id}/like — like
export const POST = route(postsLike, async ({ params, principal }) => likePost(params.id, { id: principal.userId, username: principal.username }));

// DELETE /api/posts/{id}/like — unlike
export const DELETE = route(postsUnlike, async ({ params, principal }) => unlikePost(params.id, { id: principal.userId, username: principal.username }));

// GET, PUT, PATCH: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, OPTIONS } = methodNotAllowedHandlers;
