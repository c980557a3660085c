import { profilesFavorites } from '@/lib/contracts/follows';
import { listFavoriteProfiles } from '@/lib/follows/service';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// GET /api/profiles/favorites — favorited profiles
export const GET = route(profilesFavorites, async ({ caller }) => listFavoriteProfiles({ caller }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
