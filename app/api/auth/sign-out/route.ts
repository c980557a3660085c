import { sessionCookieResponse } from '@/lib/auth/service';
import { authSignOut } from '@/lib/contracts/system';
import { route } from '@/lib/http/route';

// POST /api/auth/sign-out — clears the session cookie
export const POST = route(authSignOut, async ({ req }) => sessionCookieResponse(req, { success: true }, null));
