import { requestEmailBonus } from '@/lib/waitlist/service/bonuses';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { waitlistEmailBonus } from '@/lib/contracts/waitlist';

// POST /api/waitlist/bonus/email — mails a verification code; the bonus waits for it
export const POST = route(waitlistEmailBonus, async ({ body, caller }) => requestEmailBonus({ caller, email: body.email }));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
