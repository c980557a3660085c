import { postsInteractions } from '@/lib/contracts/posts';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { getInteractions } from '@/lib/posts/service/get-interactions';

// GET /api/posts/{id}/interactions — likes and shares of a post
export const GET = route(postsInteractions, async ({ params, caller }) => getInteractions({ caller, postId: params.id }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
