import { verifyEmailBonus } from '@/lib/waitlist/service/bonuses';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { waitlistVerifyEmailBonus } from '@/lib/contracts/waitlist';

// POST /api/waitlist/bonus/email/verify — the mailed code reserves the address and pays the bonus
export const POST = route(waitlistVerifyEmailBonus, async ({ body, caller }) => verifyEmailBonus({ caller, token: body.token }));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
