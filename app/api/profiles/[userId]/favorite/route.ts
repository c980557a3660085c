import { profilesFavorite, profilesUnfavorite } from '@/lib/contracts/follows';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { favoriteProfile, unfavoriteProfile } from '@/lib/social/service/follows';

// POST /api/profiles/{userId}/favorite — favorite a profile
export const POST = route(profilesFavorite, async ({ params, principal }) => favoriteProfile(principal.userId, params.userId));

// DELETE /api/profiles/{userId}/favorite — unfavorite
export const DELETE = route(profilesUnfavorite, async ({ params, principal }) => unfavoriteProfile(principal.userId, params.userId));

// GET, PUT, PATCH: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, OPTIONS } = methodNotAllowedHandlers;
