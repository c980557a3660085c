import { usersByUsername } from '@/lib/contracts/users';
import { route } from '@/lib/http/route';
import { getProfileByUsername } from '@/lib/users/service';

// GET /api/users/by-username/{username}
export const GET = route(usersByUsername, async ({ params, principal }) => ({
  user: await getProfileByUsername(params.username, principal?.userId),
}));
