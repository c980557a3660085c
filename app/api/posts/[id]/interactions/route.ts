import { postsInteractions } from '@/lib/contracts/social';
import { route } from '@/lib/http/route';
import { getInteractions } from '@/lib/social/service/reactions';

// GET /api/posts/{id}/interactions — likes and shares of a post
export const GET = route(postsInteractions, async ({ params, principal }) => getInteractions(params.id, principal?.userId ?? null));
