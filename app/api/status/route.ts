import { metricsStatus } from '@/lib/contracts/metrics';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { latencyStatus } from '@/lib/metrics/status';

// GET /api/status — public: the published latency of the last hour against its targets
export const GET = route(metricsStatus, async () => latencyStatus());

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
