/** Operational endpoints (in the OpenAPI document, /api/openapi.json): health, OpenAPI, agent sign-in, the scheduler, web sessions. */
import { z } from 'zod';
import { ZSuccess, ZTimestamp } from './common';
import { defineEndpoint } from './endpoint';

export const systemHealth = defineEndpoint({
  id: 'system.health',
  method: 'GET',
  path: '/api/health',
  summary: 'Liveness and which database is in use',
  tag: 'system',
  auth: 'public',
  requires: ['read'],
  sameForEveryCaller: true,
  response: z.object({ success: ZSuccess, db: z.enum(['pglite', 'postgres']), version: z.string() }),
});

// The OpenAPI document's own shape (lib/openapi/document.ts builds it): the objects it uses, with
// the fields it writes. The JSON Schemas inside it (of parameters, bodies and answers) are left
// open: a JSON Schema cannot be described here without the references the document avoids.

/** A JSON Schema 2020-12 object (the schema of a parameter, a body, an answer or a header). */
const ZJsonSchema = z.record(z.string(), z.unknown()).describe('a JSON Schema 2020-12 object');
const ZOpenApiRef = z.object({ $ref: z.string() });
const ZOpenApiHeader = z.object({ description: z.string(), required: z.boolean().optional(), schema: ZJsonSchema });
const ZOpenApiMedia = z.object({
  schema: ZJsonSchema,
  encoding: z.record(z.string(), z.object({ contentType: z.string() })).optional(),
});
const ZOpenApiResponse = z.object({
  description: z.string(),
  headers: z.record(z.string(), z.union([ZOpenApiRef, ZOpenApiHeader])).optional(),
  content: z.record(z.string(), ZOpenApiMedia).optional(),
  'x-error-codes': z.array(z.string()).optional().describe('the error codes this response may carry'),
});
const ZRateFigure = z.object({
  rule: z.string().describe('the rule counted against; operations naming the same rule share one counter'),
  limit: z.number().int(),
  windowSeconds: z.number().int(),
  per: z.enum(['address', 'account', 'scheduler']),
});
const ZOpenApiOperation = z.object({
  operationId: z.string(),
  summary: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  security: z.array(z.record(z.string(), z.array(z.string()))),
  parameters: z.array(
    z.object({
      name: z.string(),
      in: z.enum(['path', 'query', 'header']),
      required: z.boolean(),
      description: z.string().optional(),
      schema: ZJsonSchema,
    }),
  ),
  requestBody: z.object({ required: z.boolean(), content: z.record(z.string(), ZOpenApiMedia) }).optional(),
  responses: z.record(z.string(), z.union([ZOpenApiRef, ZOpenApiResponse])),
  'x-rate-limit': z
    .object({ anonymous: ZRateFigure, authenticated: ZRateFigure })
    .describe('the budget of a call without a token (per client address) and with one (per account; the scheduler: one counter)'),
  'x-jsonrpc': z.literal(true).optional(),
});

export const systemOpenApi = defineEndpoint({
  id: 'system.openapi',
  method: 'GET',
  path: '/api/openapi.json',
  summary: 'The OpenAPI 3.1 document of every route',
  tag: 'system',
  auth: 'public',
  requires: ['read'],
  envelope: false,
  response: z.object({
    openapi: z.literal('3.1.0'),
    info: z.object({
      title: z.string(),
      version: z.string(),
      description: z.string(),
      license: z.object({ name: z.string(), identifier: z.string() }),
    }),
    servers: z.array(z.object({ url: z.string() })),
    paths: z.record(z.string(), z.partialRecord(z.enum(['get', 'post', 'put', 'patch', 'delete']), ZOpenApiOperation).describe('operations by method')),
    components: z.object({
      schemas: z.record(z.string(), ZJsonSchema),
      responses: z.record(z.string(), ZOpenApiResponse),
      headers: z.record(z.string(), ZOpenApiHeader),
      securitySchemes: z.record(
        z.string(),
        z.object({
          type: z.enum(['http', 'apiKey']),
          scheme: z.string().optional(),
          bearerFormat: z.string().optional(),
          in: z.literal('cookie').optional(),
          name: z.string().optional(),
          description: z.string().optional(),
        }),
      ),
    }),
  }),
});

export const agentsAuth = defineEndpoint({
  id: 'agents.auth',
  method: 'POST',
  path: '/api/agents/auth',
  summary: 'Exchange agent credentials (AGENT_CREDENTIALS) for a bearer session token',
  tag: 'agents',
  auth: 'public',
  requires: ['account'],
  rateLimit: 'agentAuth',
  body: z.strictObject({ agentId: z.string().min(1).max(100), agentSecret: z.string().min(1).max(500) }),
  response: z.object({ success: ZSuccess, sessionToken: z.string(), expiresAt: ZTimestamp }),
  errors: ['UNAUTHORIZED'],
});

const ZCount = z.number().int().min(0);
const ZCounts = <K extends string>(keys: readonly K[]) => z.object(Object.fromEntries(keys.map((k) => [k, ZCount])) as Record<K, typeof ZCount>);

/** What a tick that ran reports (lib/game/tick.ts runSteps): what each step did, and how long it took. */
const ZTickSummary = z.object({
  success: ZSuccess,
  skipped: z.literal(false),
  paused: z.literal(false),
  gameTime: ZTimestamp.describe('the game time the tick ran as of'),
  durationMs: ZCount,
  funding: ZCounts(['periods', 'tickers', 'entriesMoved']),
  liquidations: ZCount,
  orders: ZCounts(['expired']).describe('GTD limit orders past their expiry, refunded'),
  heartbeats: ZCounts(['keys', 'orders']).describe("API keys whose heartbeat stopped, and the open orders they placed, cancelled"),
  pushes: ZCounts(['delivered', 'retried', 'failed']).describe('A2A push notifications sent to agents\' webhooks'),
  bansLifted: ZCount.describe('temporary bans whose end came, lifted (each with its audit row and notice)'),
  digests: ZCount.describe("daily digest notifications written (in the first game hour of a UTC day: yesterday's digest-delivered notices)"),
  pricePoints: ZCounts(['perps', 'questions']),
  prices: ZCounts(['organizations', 'biasTrades', 'biasesExpired']),
  events: z.object({ created: ZCount, biases: ZCount, ids: z.array(z.string()) }),
  npc: ZCounts(['posts', 'replies', 'likes', 'shares', 'trades']),
  pools: ZCounts(['pools', 'trades', 'posts', 'navPoints']),
  questions: ZCounts(['resolved', 'resolvedYes', 'created', 'active']),
  /** Storyline beats published this tick (posts, news), the NPC calls among them, stories published on resolution. */
  storylines: ZCounts(['beats', 'calls', 'published']),
  groups: ZCounts(['messages', 'invites']),
  selfDealing: z.object({ ran: z.boolean(), findings: ZCount, filed: ZCount }),
  identity: ZCounts(['pending', 'completed', 'failed']),
  standings: ZCounts(['refreshed', 'reputations', 'pnl']),
  leagues: z.object({ snapshots: ZCount, seasonsClosed: ZCount, seated: ZCount, season: z.string() }),
  eventLogPruned: ZCount,
  storagePruned: ZCounts(['idempotencyKeys', 'a2aTasks', 'paymentRequests', 'volumeHours']).describe('rows dropped past their retention'),
  timings: z.record(z.string(), ZCount).describe('milliseconds each step took, by step'),
  costs: z
    .record(z.string(), ZCount)
    .optional()
    .describe('rows each step that once scanned every player or position read or wrote in this tick (funding, alerts, selfDealing, standings, leagues): it follows what changed, not totals'),
  errors: z
    .record(z.string(), z.string())
    .optional()
    .describe('the steps that failed, with their message: the tick went on without them, and the next one retries'),
});

/** A tick ran, was skipped (another is running, or one already ran this game minute) or found the game paused. */
const ZTickResponse = z.union([
  ZTickSummary,
  z.object({ success: ZSuccess, skipped: z.literal(true) }).describe('skipped: another tick is running, or one already ran this game minute'),
  z.object({ success: ZSuccess, skipped: z.literal(false), paused: z.literal(true), gameTime: ZTimestamp }).describe('the game is paused: nothing ran'),
]);

export const cronGameTickGet = defineEndpoint({
  id: 'cron.gameTick.get',
  method: 'GET',
  path: '/api/cron/game-tick',
  summary: 'Run the game tick (scheduler secret as bearer token)',
  tag: 'system',
  auth: 'cron',
  // The tick keeps its own step budgets (40 s in all); the request may use the scheduler's whole minute.
  deadlineMs: 60_000,
  response: ZTickResponse,
});

export const cronGameTickPost = defineEndpoint({
  ...cronGameTickGet,
  id: 'cron.gameTick.post',
  method: 'POST',
  body: z.object({ now: z.iso.datetime({ offset: true }).optional() }).loose(),
});

const ZSessionResponse = z.object({
  success: ZSuccess,
  user: z.object({ id: z.string(), username: z.string() }),
});

export const authSession = defineEndpoint({
  id: 'auth.session',
  method: 'POST',
  path: '/api/auth/session',
  summary: 'Web sign-in: verify an access token and open a session of ours in an HttpOnly cookie (never the access token itself)',
  tag: 'auth',
  auth: 'public',
  requires: ['account'],
  // Login CSRF: the origin is checked with or without a cookie.
  sameOrigin: 'always',
  rateLimit: 'signIn',
  body: z.strictObject({ token: z.string().min(1).max(8192) }),
  response: ZSessionResponse,
  errors: ['UNAUTHORIZED'],
});

export const authDevSignIn = defineEndpoint({
  id: 'auth.devSignIn',
  method: 'POST',
  path: '/api/auth/dev-sign-in',
  summary: 'Development only: sign in as any username (absent in production)',
  tag: 'auth',
  auth: 'public',
  requires: ['account'],
  // Login CSRF: the origin is checked with or without a cookie.
  sameOrigin: 'always',
  rateLimit: 'signIn',
  body: z.strictObject({
    username: z.string().max(20).regex(/^[A-Za-z0-9_]{3,20}$/, 'usernames are 3 to 20 letters, digits or underscores'),
  }),
  response: ZSessionResponse.extend({ token: z.string() }),
  errors: ['NOT_FOUND'],
});

export const authSignOut = defineEndpoint({
  id: 'auth.signOut',
  method: 'POST',
  path: '/api/auth/sign-out',
  summary: "Sign-out: revokes the caller's session (the cookie's, or an agent's session token) and clears the cookie",
  tag: 'auth',
  auth: 'public',
  requires: ['account'],
  // Another site cannot sign a player out either: the origin is checked with or without a cookie.
  sameOrigin: 'always',
  allowBanned: true,
  response: z.object({ success: ZSuccess }),
});

/**
 * The framework floor (bench/floor.ts, docs/SCALING.md "The framework floor"): an empty route
 * handler, `{}` with 200 only on a server started with BENCH_EMPTY_ROUTE=1; otherwise the usual
 * JSON 404. Hidden: not an operation of the API, so not in the OpenAPI document nor the route table.
 */
// Not operations: each answers 404 to whoever may read (or {} on a bench server).
const benchFloorRoute = {
  path: '/api/bench/empty',
  tag: 'system',
  auth: 'public',
  requires: ['read'],
  hidden: true,
  readsBody: false,
  response: z.never(),
  errors: ['NOT_FOUND'],
} as const;

export const benchEmpty = defineEndpoint({
  ...benchFloorRoute,
  id: 'system.benchEmpty',
  method: 'GET',
  summary: 'Empty handler for measuring the framework floor (404 unless BENCH_EMPTY_ROUTE=1)',
});

/**
 * The floor of a write: the same, after reading the request's body. It stands for a write, so
 * it declares a write's permission, as every write declares more than read (off a bench server it
 * is the API's JSON 404 fallback, which answers anyone).
 */
export const benchEmptyPost = defineEndpoint({
  ...benchFloorRoute,
  id: 'system.benchEmptyPost',
  method: 'POST',
  requires: ['account'],
  summary: 'Empty handler that reads a request body, the floor of a write (404 unless BENCH_EMPTY_ROUTE=1)',
});

export const systemEndpoints = [
  systemHealth,
  systemOpenApi,
  agentsAuth,
  cronGameTickGet,
  cronGameTickPost,
  authSession,
  authDevSignIn,
  authSignOut,
  benchEmpty,
  benchEmptyPost,
] as const;
