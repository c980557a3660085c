import { postsCreate, postsList } from '@/lib/contracts/posts';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { createPost, listPosts } from '@/lib/social/service/posts';

// GET /api/posts — posts newest first; following feed with reposts; page or cursor
export const GET = route(postsList, async ({ query, principal }) => listPosts(query, principal?.userId ?? null));

// POST /api/posts — create a post
export const POST = route(postsCreate, async ({ body, principal }) =>
  createPost({ authorId: principal.userId, authorUsername: principal.username, ...body }),
);

// PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
