import { usersSearch } from '@/lib/contracts/users';
import { route } from '@/lib/http/route';
import { searchUsers } from '@/lib/users/service';

// GET /api/users/search — users and actors by username or display name
export const GET = route(usersSearch, async ({ query }) => searchUsers(query));
