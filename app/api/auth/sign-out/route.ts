import { sessionCookieResponse, signOut } from '@/lib/principals/service';
import { authSignOut } from '@/lib/contracts/system';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// POST /api/auth/sign-out — revokes the caller's session and clears the session cookie
export const POST = route(authSignOut, async ({ principal }) => sessionCookieResponse(await signOut(principal), null));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
