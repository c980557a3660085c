import { claimWalletBonus } from '@/lib/waitlist/service/bonuses';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { waitlistWalletBonus } from '@/lib/contracts/waitlist';

// POST /api/waitlist/bonus/wallet
export const POST = route(waitlistWalletBonus, async ({ body, caller }) => claimWalletBonus({ caller, walletAddress: body.walletAddress }));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
