import { calibrationLeaderboard } from '@/lib/contracts/storylines';
import { listCalibration } from '@/lib/storylines/read';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';

// GET /api/actors/calibration — NPCs ranked by calibration (Brier ascending, at least 3 resolved calls)
export const GET = route(calibrationLeaderboard, async ({ query }) => listCalibration(query.limit));

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
