import { profilesFavorites } from '@/lib/contracts/social';
import { route } from '@/lib/http/route';
import { listFavoriteProfiles } from '@/lib/social/service/follows';

// GET /api/profiles/favorites — favorited profiles
export const GET = route(profilesFavorites, async ({ principal }) => listFavoriteProfiles(principal.userId));
