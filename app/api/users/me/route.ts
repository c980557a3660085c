import { usersMe } from '@/lib/contracts/users';
import { route } from '@/lib/http/route';
import { getCurrentUser } from '@/lib/users/service';

// GET /api/users/me — the authenticated user, created on first request
export const GET = route(usersMe, async ({ principal }) => ({
  user: await getCurrentUser(principal.user, principal.isAdmin),
}));
