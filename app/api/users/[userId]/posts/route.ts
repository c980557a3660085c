import { usersPosts } from '@/lib/contracts/posts';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { listUserPosts } from '@/lib/posts/service/read-posts';

// GET /api/users/{userId}/posts — a user's posts
export const GET = route(usersPosts, async ({ params, query, caller }) => listUserPosts({ caller, userId: params.userId, ...query }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
