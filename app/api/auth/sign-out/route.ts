import { sessionCookieResponse } from '@/lib/auth/service';
import { authSignOut } from '@/lib/contracts/system';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// POST /api/auth/sign-out — clears the session cookie
export const POST = route(authSignOut, async ({ req }) => sessionCookieResponse(req, { success: true }, null));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
