import { apiKeysHeartbeat } from '@/lib/contracts/api-keys';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { heartbeatApiKey } from '@/lib/api-keys/service';

// POST /api/users/{userId}/api-keys/{keyId}/heartbeat — the key itself: arms its dead-man switch
export const POST = route(apiKeysHeartbeat, async ({ params, body, caller }) =>
  heartbeatApiKey({ caller, userId: params.userId, keyId: params.keyId, timeoutSeconds: body.timeoutSeconds }),
);

// GET, PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
