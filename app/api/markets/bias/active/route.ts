import { biasActive } from '@/lib/contracts/markets';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { listActiveBiases } from '@/lib/markets/service/read-markets';

// GET /api/markets/bias/active — biases that have not expired
export const GET = route(biasActive, async () => listActiveBiases());

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
