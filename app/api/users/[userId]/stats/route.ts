import { usersStats } from '@/lib/contracts/users';
import { route } from '@/lib/http/route';
import { getUserStats } from '@/lib/users/service';

// GET /api/users/{userId}/stats
export const GET = route(usersStats, async ({ params }) => ({ stats: await getUserStats(params.userId) }));
