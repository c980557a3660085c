import { trendingTag } from '@/lib/contracts/posts';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { listTagPosts } from '@/lib/posts/service/read-posts';

// GET /api/trending/{tag} — posts with a tag
export const GET = route(trendingTag, async ({ params, query, caller }) => listTagPosts({ caller, tag: params.tag, ...query }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
