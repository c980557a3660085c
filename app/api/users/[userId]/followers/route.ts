import { usersFollowers } from '@/lib/contracts/social';
import { route } from '@/lib/http/route';
import { listFollowers } from '@/lib/social/service/follows';

// GET /api/users/{userId}/followers — followers
export const GET = route(usersFollowers, async ({ params, query, principal }) => listFollowers(params.userId, query, principal?.userId ?? null));
