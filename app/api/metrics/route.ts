import type { NextRequest } from 'next/server';
import { secretsEqual } from '@/lib/auth/secrets';
import { metricsPrometheus } from '@/lib/contracts/metrics';
import { env } from '@/lib/env';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { apiHeaders } from '@/lib/http/security-headers';
import { prometheusAnswer } from '@/lib/metrics/service';

// GET /api/metrics — Prometheus text of this instance: administrators (their usual token), or a
// scraper with `Authorization: Bearer <METRICS_TOKEN>`, answered before the wrapper, which would
// take that token for an access token and refuse it.
const forAdmins = route(metricsPrometheus, async () => prometheusAnswer());

export const GET = async (req: NextRequest, ctx?: { params?: Promise<Record<string, string | string[] | undefined>> }) => {
  const token = env().metricsToken;
  const auth = req.headers.get('authorization');
  if (token && auth?.startsWith('Bearer ') && secretsEqual(auth.slice(7).trim(), token)) {
    const res = prometheusAnswer();
    for (const [k, v] of Object.entries(apiHeaders())) if (!res.headers.has(k)) res.headers.set(k, v);
    res.headers.set('X-Request-Id', crypto.randomUUID());
    return res;
  }
  return forAdmins(req, ctx);
};

// POST, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
