import { walletsChallenge } from '@/lib/contracts/wallets';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { issueWalletChallenge } from '@/lib/wallets/service/issue-challenge';

// POST /api/users/wallet/challenge — a challenge to sign with the wallet, for the caller and the address
export const POST = route(walletsChallenge, async ({ body, caller }) => issueWalletChallenge({ caller, address: body.address }));

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
