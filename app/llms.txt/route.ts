import { A2A_METHOD_TABLE } from '@/lib/a2a/methods';
import { API_KEY_SCOPES, HEARTBEAT_MAX_S, HEARTBEAT_MIN_S } from '@/lib/contracts/api-keys';
import { RATE_LIMITS } from '@/lib/contracts/rate-limits';
import { buildLlmsTxt } from '@/lib/system/llms-txt';
import { publicOrigin } from '@/lib/system/public-origin';

const KEYS = { scopes: API_KEY_SCOPES, heartbeatSeconds: { min: HEARTBEAT_MIN_S, max: HEARTBEAT_MAX_S } };

// GET /llms.txt — public: the service described for language-model agents (lib/system/llms-txt.ts).
// Outside /api, so neither the API's 404 fallback nor its envelope applies; proxy.ts adds the
// static files' headers. The text names the origin, so caches keep one copy per host.
export function GET(req: Request) {
  const text = buildLlmsTxt({ origin: publicOrigin(req.headers, req.url), methods: A2A_METHOD_TABLE, rateLimits: RATE_LIMITS, keys: KEYS });
  return new Response(text, {
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'public, max-age=300',
      Vary: 'Host, X-Forwarded-Host, X-Forwarded-Proto',
    },
  });
}
