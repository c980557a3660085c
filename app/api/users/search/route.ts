import { usersSearch } from '@/lib/contracts/users';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { searchUsers } from '@/lib/users/service/search-users';

// GET /api/users/search — users and actors by username or display name
export const GET = route(usersSearch, async ({ query }) => searchUsers(query));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
