import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { readReferrals } from '@/lib/referrals/service/read-referrals';
import { referralsList } from '@/lib/contracts/referrals';
import { route } from '@/lib/http/route';

// GET /api/users/{userId}/referrals — owner only
export const GET = route(referralsList, async ({ params, query, caller }) => readReferrals({ caller, userId: params.userId, ...query }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
