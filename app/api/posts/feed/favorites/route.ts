import { postsFavoritesFeed } from '@/lib/contracts/posts';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { listFavoritesFeed } from '@/lib/posts/service/read-posts';

// GET /api/posts/feed/favorites — posts of favorited profiles
export const GET = route(postsFavoritesFeed, async ({ query, caller }) => listFavoritesFeed({ caller, ...query }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
