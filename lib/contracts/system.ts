/** Operational endpoints of CONTRACT.md: health, OpenAPI, agent sign-in, the scheduler, web sessions. */
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
  response: z.object({ success: ZSuccess, db: z.enum(['pglite', 'postgres']), version: z.string() }),
});

export const systemOpenApi = defineEndpoint({
  id: 'system.openapi',
  method: 'GET',
  path: '/api/openapi.json',
  summary: 'The OpenAPI 3.1 document of every route',
  tag: 'system',
  auth: 'public',
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
    paths: z.record(z.string(), z.record(z.string(), z.record(z.string(), z.unknown())).describe('operations by method')),
    components: z.record(z.string(), z.record(z.string(), z.unknown())),
  }),
});

export const agentsAuth = defineEndpoint({
  id: 'agents.auth',
  method: 'POST',
  path: '/api/agents/auth',
  summary: 'Exchange agent credentials (AGENT_CREDENTIALS) for a bearer session token',
  tag: 'agents',
  auth: 'public',
  rateLimit: 'agentAuth',
  body: z.strictObject({ agentId: z.string().min(1).max(100), agentSecret: z.string().min(1).max(500) }),
  response: z.object({ success: ZSuccess, sessionToken: z.string(), expiresAt: ZTimestamp }),
  errors: ['UNAUTHORIZED'],
});

const ZTickResponse = z.object({ success: ZSuccess, skipped: z.boolean().optional() }).loose();

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
  summary: 'Web sign-in: verify an access token and keep it in an HttpOnly session cookie',
  tag: 'auth',
  auth: 'public',
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
  summary: 'Web sign-out: clears the session cookie',
  tag: 'auth',
  auth: 'public',
  allowBanned: true,
  response: z.object({ success: ZSuccess }),
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
] as const;
