/**
 * API keys (issue 33, CONTRACT.md "API keys"): a player's credentials for their bots, with a
 * safety contract. A key authenticates REST, A2A and MCP as its owner (`Authorization: Bearer
 * pm_…`), narrowed to its scopes and held to its caps before anything is written. Creating and
 * revoking a key needs the owner's own sign-in (`account`, which no key carries); the heartbeat
 * is the key's own call.
 */
import { z } from 'zod';
import { ZIdParam, ZSuccess, ZTimestamp, ZUserIdParams, zAmountInput } from './common';
import { defineEndpoint } from './endpoint';

import { API_KEY_SCOPES, HEARTBEAT_MAX_S, HEARTBEAT_MIN_S } from '@/lib/api-keys/limits';

export { API_KEY_SCOPES, HEARTBEAT_MAX_S, HEARTBEAT_MIN_S, MAX_LIVE_KEYS, type TApiKeyScope } from '@/lib/api-keys/limits';

export const ZApiKey = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string().describe('the first characters of the secret (pm_ and 8 more), to tell keys apart'),
  scopes: z.array(z.enum(API_KEY_SCOPES)),
  maxOrderAmount: z.string().nullable().describe('the most currency one order or trade may commit (a perp: its margin)'),
  dailyLimit: z.string().nullable().describe('the most currency the key may commit per UTC day, open orders\' reservations included'),
  maxLeverage: z.string().nullable(),
  expiresAt: ZTimestamp.nullable(),
  createdAt: ZTimestamp,
  lastUsedAt: ZTimestamp.nullable().describe('kept to the minute'),
  revokedAt: ZTimestamp.nullable(),
  heartbeat: z
    .object({ timeoutSeconds: z.number().int(), deadline: ZTimestamp })
    .nullable()
    .describe('the armed dead-man switch: when no heartbeat arrives before the deadline, the key\'s open orders are cancelled'),
});
export type TApiKey = z.infer<typeof ZApiKey>;

const ZKeyParams = z.object({ userId: ZIdParam, keyId: ZIdParam });

const ZCap = (max: number, description: string) => zAmountInput({ min: 0, max, exclusiveMin: true, description }).nullable().optional();

export const apiKeysCreate = defineEndpoint({
  id: 'apiKeys.create',
  method: 'POST',
  path: '/api/users/{userId}/api-keys',
  status: 201,
  summary: 'Create an API key for your bot: its secret (pm_…) is answered only here, once',
  tag: 'api-keys',
  auth: 'user',
  // `account`: the owner's own sign-in; no key carries it, so a key cannot create keys.
  requires: ['account'],
  params: ZUserIdParams,
  body: z.strictObject({
    name: z.string().trim().min(1).max(64),
    scopes: z
      .array(z.enum(API_KEY_SCOPES))
      .min(1)
      .max(3)
      .refine((s) => new Set(s).size === s.length, 'scopes must not repeat'),
    maxOrderAmount: ZCap(1e9, 'the most currency one order or trade may commit'),
    dailyLimit: ZCap(1e12, 'the most currency committed per UTC day'),
    maxLeverage: zAmountInput({ min: 1, max: 100, description: 'the highest leverage a perp order may use (1 to 100)' }).nullable().optional(),
    expiresAt: z.iso.datetime({ offset: true }).nullable().optional().describe('ISO 8601; none: the key lives until revoked'),
  }),
  response: z.object({ success: ZSuccess, apiKey: ZApiKey, secret: z.string().regex(/^pm_[A-Za-z0-9_-]+$/).describe('pm_ and 43 characters: shown only here, once') }),
  errors: ['VALIDATION_ERROR', 'FORBIDDEN', 'INSUFFICIENT_SCOPE', 'TOO_MANY_KEYS'],
});

export const apiKeysList = defineEndpoint({
  id: 'apiKeys.list',
  method: 'GET',
  path: '/api/users/{userId}/api-keys',
  summary: 'Your API keys, newest first (revoked ones included), never their secrets',
  tag: 'api-keys',
  auth: 'user',
  requires: ['read'],
  params: ZUserIdParams,
  response: z.object({ success: ZSuccess, apiKeys: z.array(ZApiKey) }),
  errors: ['FORBIDDEN'],
});

export const apiKeysRevoke = defineEndpoint({
  id: 'apiKeys.revoke',
  method: 'DELETE',
  path: '/api/users/{userId}/api-keys/{keyId}',
  summary: 'Revoke an API key at once: every later call with it is 401',
  tag: 'api-keys',
  auth: 'user',
  requires: ['account'],
  params: ZKeyParams,
  response: z.object({ success: ZSuccess }),
  errors: ['FORBIDDEN', 'INSUFFICIENT_SCOPE', 'API_KEY_NOT_FOUND'],
});

export const apiKeysHeartbeat = defineEndpoint({
  id: 'apiKeys.heartbeat',
  method: 'POST',
  path: '/api/users/{userId}/api-keys/{keyId}/heartbeat',
  // A trade-scope call, so it takes an Idempotency-Key as they all do (a replay re-arms nothing).
  idempotent: true,
  summary:
    "The dead-man switch: sent with the key itself, it arms (or re-arms) a timer; when no heartbeat arrives for timeoutSeconds, every open order placed with the key is cancelled",
  tag: 'api-keys',
  auth: 'user',
  // The switch guards the key's orders: a key that may trade arms it (and it must be that key, below).
  requires: ['trade'],
  params: ZKeyParams,
  body: z.strictObject({ timeoutSeconds: z.number().int().min(HEARTBEAT_MIN_S).max(HEARTBEAT_MAX_S) }),
  response: z.object({
    success: ZSuccess,
    keyId: z.string(),
    timeoutSeconds: z.number().int(),
    deadline: ZTimestamp.describe('game time: the key\'s open orders are cancelled when it passes without a heartbeat'),
  }),
  errors: ['VALIDATION_ERROR', 'FORBIDDEN', 'NOT_THIS_KEY', 'API_KEY_NOT_FOUND'],
});

export const apiKeysEndpoints = [apiKeysCreate, apiKeysList, apiKeysRevoke, apiKeysHeartbeat] as const;
