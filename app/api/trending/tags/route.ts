import { trendingTags } from '@/lib/contracts/widgets';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { listTrendingTags } from '@/lib/widgets/service/trending';

// GET /api/trending/tags — trending tags
export const GET = route(trendingTags, async ({ query }) => listTrendingTags(query.limit));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
