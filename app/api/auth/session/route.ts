import { sessionCookieResponse, signInWithToken } from '@/lib/auth/service';
import { authSession } from '@/lib/contracts/system';
import { route } from '@/lib/http/route';

// POST /api/auth/session — web sign-in with an access token (kept in an HttpOnly cookie)
export const POST = route(authSession, async ({ req, body }) =>
  sessionCookieResponse(req, { success: true, ...(await signInWithToken(body.token)) }, body.token),
);
