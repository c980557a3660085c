import { widgetsTrendingPosts } from '@/lib/contracts/widgets';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { listTrendingPosts } from '@/lib/widgets/service/trending';

// GET /api/feed/widgets/trending-posts — trending posts with scores (those the caller may see)
export const GET = route(widgetsTrendingPosts, async ({ query, caller }) => listTrendingPosts({ caller, limit: query.limit }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
