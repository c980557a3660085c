import { usersSearch } from '@/lib/contracts/users';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { searchUsers } from '@/lib/users/service/search-users';

// GET /api/users/search — users and actors by username or display name (none in a block with the caller)
export const GET = route(usersSearch, async ({ query, caller }) => searchUsers({ caller, ...query }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
