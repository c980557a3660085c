import { postsGet } from '@/lib/contracts/posts';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { getPost } from '@/lib/posts/service/read-posts';

// GET /api/posts/{id} — one post
export const GET = route(postsGet, async ({ params, caller }) => getPost({ caller, postId: params.id }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
