import { postsInteractions } from '@/lib/contracts/posts';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { getInteractions } from '@/lib/social/service/reactions';

// GET /api/posts/{id}/interactions — likes and shares of a post
export const GET = route(postsInteractions, async ({ params, principal }) => getInteractions(params.id, principal?.userId ?? null));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
