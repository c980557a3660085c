import { usersTrackRecord } from '@/lib/contracts/track-record';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { getTrackRecord } from '@/lib/track-record/service';

// GET /api/users/{userId}/track-record — open positions, realized PnL, calibration
export const GET = route(usersTrackRecord, async ({ params }) => getTrackRecord({ userId: params.userId }));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
