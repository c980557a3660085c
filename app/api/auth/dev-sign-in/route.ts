import { devSignIn, sessionCookieResponse } from '@/lib/principals/service';
import { authDevSignIn } from '@/lib/contracts/system';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// POST /api/auth/dev-sign-in — development only: sign in as any username
export const POST = route(authDevSignIn, async ({ body }) => {
  const { user, session } = await devSignIn(body.username);
  return sessionCookieResponse({ success: true, token: session.token, user }, session);
});

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
