import { profilesFavorites } from '@/lib/contracts/follows';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { listFavoriteProfiles } from '@/lib/social/service/follows';

// GET /api/profiles/favorites — favorited profiles
export const GET = route(profilesFavorites, async ({ principal }) => listFavoriteProfiles(principal.userId));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
