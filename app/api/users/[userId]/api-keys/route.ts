import { apiKeysCreate, apiKeysList } from '@/lib/contracts/api-keys';
import { methodNotAllowedHandlers } from '@/lib/http/fallback';
import { route } from '@/lib/http/route';
import { createApiKey, listApiKeys } from '@/lib/api-keys/service';

// GET /api/users/{userId}/api-keys — owner: the keys, never their secrets
export const GET = route(apiKeysList, async ({ params, caller }) => listApiKeys({ caller, userId: params.userId }));

// POST /api/users/{userId}/api-keys — owner, signed in (not with a key): a new key and its secret, once
export const POST = route(apiKeysCreate, async ({ params, body, caller }) => createApiKey({ caller, userId: params.userId, ...body }));

// PUT, PATCH, DELETE: 405 with Allow; OPTIONS: the CORS preflight
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowedHandlers;
