import { sessionCookieResponse, signInWithToken } from '@/lib/principals/service';
import { authSession } from '@/lib/contracts/system';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// POST /api/auth/session — web sign-in: an access token is exchanged for our session (an HttpOnly cookie)
export const POST = route(authSession, async ({ body }) => {
  const { user, session } = await signInWithToken(body.token);
  return sessionCookieResponse({ success: true, user }, session);
});

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
