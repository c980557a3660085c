import { usersPosts } from '@/lib/contracts/social';
import { route } from '@/lib/http/route';
import { listUserPosts } from '@/lib/social/service/posts';

// GET /api/users/{userId}/posts — a user's posts
export const GET = route(usersPosts, async ({ params, query, principal }) => listUserPosts(params.userId, query, principal?.userId ?? null));
