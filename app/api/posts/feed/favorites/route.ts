import { postsFavoritesFeed } from '@/lib/contracts/social';
import { route } from '@/lib/http/route';
import { listFavoritesFeed } from '@/lib/social/service/posts';

// GET /api/posts/feed/favorites — posts of favorited profiles
export const GET = route(postsFavoritesFeed, async ({ query, principal }) => listFavoritesFeed(principal.userId, query));
