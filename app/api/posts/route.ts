import { postsCreate, postsList } from '@/lib/contracts/posts';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { createPost } from '@/lib/posts/service/create-post';
import { listPosts } from '@/lib/posts/service/read-posts';

// GET /api/posts — posts newest first; following feed with reposts; page or cursor
export const GET = route(postsList, async ({ query, caller }) => listPosts({ caller, ...query }));

// POST /api/posts — create a post
export const POST = route(postsCreate, async ({ body, caller }) =>
  createPost({ caller, ...body }),
);

// PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
