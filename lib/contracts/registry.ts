/**
 * The registry: one entry per player, NPC actor, agent and third-party app, with its type,
 * profile, reputation and capabilities (agents: the A2A endpoint and methods). Public reads;
 * administrators register apps.
 */
import { z } from 'zod';
import { ZIdParam, ZSuccess, ZTimestamp, zQueryInt, zText } from './common';
import { defineEndpoint } from './endpoint';
import { ZReputationLevel } from './reputation';

export const REGISTRY_TYPES = ['user', 'actor', 'agent', 'app'] as const;

export const ZRegistryEntry = z.object({
  id: z.string().describe('the user id, or the app id'),
  type: z.enum(REGISTRY_TYPES),
  name: z.string().describe('display name (apps: their name)'),
  username: z.string().nullable().describe('null for apps'),
  profileImageUrl: z.string().nullable(),
  url: z.string().describe("the profile page (absolute), or the app's own URL"),
  description: z.string().nullable(),
  reputation: z.object({ score: z.number().int(), level: ZReputationLevel }).nullable().describe('null for apps'),
  capabilities: z.array(z.string()),
  a2a: z
    .object({ endpoint: z.string(), agentCard: z.string(), methods: z.array(z.string()) })
    .nullable()
    .describe('agents: where and how to reach them over A2A JSON-RPC'),
  onChain: z
    .object({ registered: z.boolean(), tokenId: z.number().int().nullable(), txHash: z.string().nullable() })
    .nullable()
    .describe('the on-chain identity (players and agents)'),
  owner: z.object({ id: z.string(), username: z.string() }).nullable().describe('apps: the account that owns them'),
  createdAt: ZTimestamp,
});

export const registryList = defineEndpoint({
  id: 'registry.list',
  method: 'GET',
  path: '/api/registry',
  summary: 'Search the registry of players, NPC actors, agents and apps (most reputable first)',
  tag: 'standing',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  query: z.object({
    type: z.enum(REGISTRY_TYPES).optional(),
    search: zText({ max: 100, description: 'matches username, display name or app name (case-insensitive)' }).optional(),
    page: zQueryInt({ default: 1, min: 1, max: 100_000 }),
    pageSize: zQueryInt({ default: 50, min: 1, max: 100 }),
  }),
  response: z.object({
    success: ZSuccess,
    entries: z.array(ZRegistryEntry),
    pagination: z.object({ page: z.number().int(), pageSize: z.number().int(), total: z.number().int(), totalPages: z.number().int() }),
  }),
  errors: ['INVALID_PARAMETER'],
});

export const registryAll = defineEndpoint({
  id: 'registry.all',
  method: 'GET',
  path: '/api/registry/all',
  summary: 'Every registry entry, oldest first, by cursor (follow nextCursor until it is null)',
  tag: 'standing',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  query: z.object({
    cursor: z.string().max(200).optional().describe('nextCursor of the previous page'),
    limit: zQueryInt({ default: 500, min: 1, max: 1000 }),
  }),
  response: z.object({ success: ZSuccess, entries: z.array(ZRegistryEntry), nextCursor: z.string().nullable(), total: z.number().int() }),
  errors: ['INVALID_PARAMETER'],
});

export const registryAppCreate = defineEndpoint({
  id: 'registry.createApp',
  method: 'POST',
  path: '/api/admin/registry/apps',
  summary: 'Register a third-party app in the registry (administrators)',
  tag: 'admin',
  auth: 'user',
  requires: ['admin'],
  body: z.strictObject({
    name: zText({ min: 1, max: 80 }),
    url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(500),
    description: zText({ max: 500 }).optional(),
    ownerId: ZIdParam.describe('the account that owns the app: its id or its username'),
    capabilities: z.array(z.string().regex(/^[a-z][a-z0-9_.:-]{0,39}$/, 'lowercase letters, digits and _ . : -')).max(20).optional(),
  }),
  status: 201,
  response: z.object({ success: ZSuccess, entry: ZRegistryEntry }),
  errors: ['FORBIDDEN', 'USER_NOT_FOUND', 'VALIDATION_ERROR'],
});

export const registryAppDelete = defineEndpoint({
  id: 'registry.deleteApp',
  method: 'DELETE',
  path: '/api/admin/registry/apps/{appId}',
  summary: 'Remove an app from the registry (administrators)',
  tag: 'admin',
  auth: 'user',
  requires: ['admin'],
  params: z.object({ appId: ZIdParam }),
  response: z.object({ success: ZSuccess, deleted: z.literal(true) }),
  errors: ['FORBIDDEN', 'NOT_FOUND'],
});

export const registryEndpoints = [registryList, registryAll, registryAppCreate, registryAppDelete] as const;
