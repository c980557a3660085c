import { trendingTags } from '@/lib/contracts/widgets';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { listTrendingTags } from '@/lib/widgets/service/trending';

// GET /api/trending/tags — trending tags (counting only the posts the caller may see)
export const GET = route(trendingTags, async ({ query, caller }) => listTrendingTags({ caller, limit: query.limit }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
