import { postsGet } from '@/lib/contracts/social';
import { route } from '@/lib/http/route';
import { getPost } from '@/lib/social/service/posts';

// GET /api/posts/{id} — one post
export const GET = route(postsGet, async ({ params, principal }) => getPost(params.id, principal?.userId ?? null));
