import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { publicOrigin } from '@/lib/system/public-origin';
import { readReferralCode } from '@/lib/referrals/service/read-referrals';
import { referralsCode } from '@/lib/contracts/referrals';
import { route } from '@/lib/http/route';

// GET /api/users/{userId}/referral-code — owner only
export const GET = route(referralsCode, async ({ params, caller, req }) =>
  readReferralCode({ caller, userId: params.userId, origin: publicOrigin(req.headers, req.url) }),
);

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
