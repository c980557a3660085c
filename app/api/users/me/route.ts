import { usersMe } from '@/lib/contracts/users';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { getCurrentUserWithNumbers, readMeBySubject } from '@/lib/equity/answers';

// GET /api/users/me — the authenticated user, created on first request. The caller's row, its
// stats and its account's numbers are one statement (readMeBySubject) when the token is not a
// session's or a key's, whose own lookup loads the row.
export const GET = route(usersMe, async ({ caller, principal }) => ({ user: await getCurrentUserWithNumbers({ caller, principal }) }), {
  callerRead: readMeBySubject,
});

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
