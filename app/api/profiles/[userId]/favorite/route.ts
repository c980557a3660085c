import { profilesFavorite, profilesUnfavorite } from '@/lib/contracts/follows';
import { favoriteProfile, unfavoriteProfile } from '@/lib/follows/service';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// POST /api/profiles/{userId}/favorite — favorite a profile
export const POST = route(profilesFavorite, async ({ params, caller }) => favoriteProfile({ caller, userId: params.userId }));

// DELETE /api/profiles/{userId}/favorite — unfavorite
export const DELETE = route(profilesUnfavorite, async ({ params, caller }) => unfavoriteProfile({ caller, userId: params.userId }));

// GET, PUT, PATCH: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, OPTIONS } = methodNotAllowedHandlers;
