import { trendingTag } from '@/lib/contracts/social';
import { route } from '@/lib/http/route';
import { listTagPosts } from '@/lib/social/service/posts';

// GET /api/trending/{tag} — posts with a tag
export const GET = route(trendingTag, async ({ params, query, principal }) => listTagPosts(params.tag, query, principal?.userId ?? null));
