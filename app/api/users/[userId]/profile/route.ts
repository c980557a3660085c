import { usersProfile } from '@/lib/contracts/users';
import { route } from '@/lib/http/route';
import { getProfile } from '@/lib/users/service';

// GET /api/users/{userId}/profile — by id, username or wallet address
export const GET = route(usersProfile, async ({ params, principal }) => ({
  user: await getProfile(params.userId, principal?.userId),
}));
