import { claimWalletBonus } from '@/lib/waitlist/service/bonuses';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { waitlistWalletBonus } from '@/lib/contracts/waitlist';

// POST /api/waitlist/bonus/wallet — binds only with the address's signature of a challenge issued to the caller
export const POST = route(waitlistWalletBonus, async ({ body, caller }) => claimWalletBonus({ caller, ...body }));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
