import { apiKeysRevoke } from '@/lib/contracts/api-keys';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { revokeApiKey } from '@/lib/api-keys/service';

// DELETE /api/users/{userId}/api-keys/{keyId} — owner, signed in: revokes the key at once
export const DELETE = route(apiKeysRevoke, async ({ params, caller }) => revokeApiKey({ caller, userId: params.userId, keyId: params.keyId }));

// GET, POST, PUT, PATCH: 405 with Allow; OPTIONS: the CORS preflight
export const { GET, POST, PUT, PATCH, OPTIONS } = methodNotAllowedHandlers;
