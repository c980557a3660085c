import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { readWaitlistPosition } from '@/lib/waitlist/service/ranking';
import { route } from '@/lib/http/route';
import { waitlistPosition } from '@/lib/contracts/waitlist';

// GET /api/waitlist/position?userId= — your own (administrators: anyone's)
export const GET = route(waitlistPosition, async ({ query, caller }) => readWaitlistPosition({ caller, userId: query.userId }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
