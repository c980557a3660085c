import { trendingTags } from '@/lib/contracts/social';
import { route } from '@/lib/http/route';
import { listTrendingTags } from '@/lib/social/service/trending';

// GET /api/trending/tags — trending tags
export const GET = route(trendingTags, async ({ query }) => listTrendingTags(query.limit));
