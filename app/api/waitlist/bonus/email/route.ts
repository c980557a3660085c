import { claimEmailBonus } from '@/lib/waitlist/service/bonuses';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { waitlistEmailBonus } from '@/lib/contracts/waitlist';

// POST /api/waitlist/bonus/email
export const POST = route(waitlistEmailBonus, async ({ body, caller }) => claimEmailBonus({ caller, email: body.email }));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
