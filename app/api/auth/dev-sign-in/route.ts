import { devSignIn, sessionCookieResponse } from '@/lib/auth/service';
import { authDevSignIn } from '@/lib/contracts/system';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// POST /api/auth/dev-sign-in — development only: sign in as any username
export const POST = route(authDevSignIn, async ({ req, body }) => {
  const result = await devSignIn(body.username);
  return sessionCookieResponse(req, { success: true, ...result }, result.token);
});

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
