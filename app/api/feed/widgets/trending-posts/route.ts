import { widgetsTrendingPosts } from '@/lib/contracts/social';
import { route } from '@/lib/http/route';
import { listTrendingPosts } from '@/lib/social/service/trending';

// GET /api/feed/widgets/trending-posts — trending posts with scores
export const GET = route(widgetsTrendingPosts, async ({ query }) => listTrendingPosts(query.limit));
