import { metricsPrometheus } from '@/lib/contracts/metrics';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { prometheusAnswer } from '@/lib/metrics/service';

// GET /api/metrics — Prometheus text of this instance: administrators (their usual token), or a
// scraper with `Authorization: Bearer <METRICS_TOKEN>` (the contract's `auth: 'metrics'`).
export const GET = route(metricsPrometheus, async () => prometheusAnswer());

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
