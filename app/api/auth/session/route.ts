import { sessionCookieResponse, signInWithToken } from '@/lib/auth/service';
import { authSession } from '@/lib/contracts/system';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// POST /api/auth/session — web sign-in with an access token (kept in an HttpOnly cookie)
export const POST = route(authSession, async ({ req, body }) =>
  sessionCookieResponse(req, { success: true, ...(await signInWithToken(body.token)) }, body.token),
);

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
