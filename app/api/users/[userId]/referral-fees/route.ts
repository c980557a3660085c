import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { now } from '@/lib/clock/clock';
import { readReferralFees } from '@/lib/referrals/service/read-referrals';
import { referralsFees } from '@/lib/contracts/referrals';
import { route } from '@/lib/http/route';

// GET /api/users/{userId}/referral-fees — owner only
export const GET = route(referralsFees, async ({ params, query, caller }) =>
  readReferralFees({ caller, userId: params.userId, days: query.days, now: now() }),
);

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
