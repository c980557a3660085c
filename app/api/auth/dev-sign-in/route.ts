import { devSignIn, sessionCookieResponse } from '@/lib/auth/service';
import { authDevSignIn } from '@/lib/contracts/system';
import { route } from '@/lib/http/route';

// POST /api/auth/dev-sign-in — development only: sign in as any username
export const POST = route(authDevSignIn, async ({ req, body }) => {
  const result = await devSignIn(body.username);
  return sessionCookieResponse(req, { success: true, ...result }, result.token);
});
