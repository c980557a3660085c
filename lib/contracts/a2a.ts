/** The A2A agent card (the JSON-RPC endpoint itself, POST /api/a2a, is described by this card). */
import { z } from 'zod';
import { defineEndpoint } from './endpoint';

export const ZAgentCard = z.object({
  protocolVersion: z.string(),
  name: z.string(),
  description: z.string(),
  url: z.string().describe('the JSON-RPC endpoint, absolute'),
  preferredTransport: z.literal('JSONRPC'),
  version: z.string(),
  provider: z.object({ organization: z.string(), url: z.string() }),
  documentationUrl: z.string(),
  capabilities: z.object({ streaming: z.boolean(), pushNotifications: z.boolean(), stateTransitionHistory: z.boolean() }),
  securitySchemes: z.record(z.string(), z.object({ type: z.literal('http'), scheme: z.string(), bearerFormat: z.string(), description: z.string() })),
  security: z.array(z.record(z.string(), z.array(z.string()))),
  defaultInputModes: z.array(z.string()),
  defaultOutputModes: z.array(z.string()),
  skills: z.array(z.object({ id: z.string(), name: z.string(), description: z.string(), tags: z.array(z.string()), examples: z.array(z.string()) })),
});

const card = (path: string, id: string) =>
  defineEndpoint({
    id,
    method: 'GET',
    path,
    summary: 'The A2A agent card (protocol 0.3.0): the JSON-RPC endpoint, its security and one skill per method group',
    tag: 'a2a',
    auth: 'public',
    envelope: false,
    response: ZAgentCard,
  });

export const a2aAgentCard = card('/.well-known/agent-card.json', 'a2a.agentCard');
export const a2aAgentCardAlias = card('/.well-known/agent-card', 'a2a.agentCardAlias');

const ZRpcId = z.union([z.string(), z.number(), z.null()]);

/** One JSON-RPC 2.0 answer: a result, or an error (a domain failure's data holds the REST code and status). */
export const ZRpcAnswer = z.object({
  jsonrpc: z.literal('2.0'),
  id: ZRpcId.describe('the id of the request answered (null when it could not be read)'),
  result: z.unknown().optional().describe('the method\'s result, as GET /api/a2a/methods and the agent card describe it'),
  error: z
    .object({
      code: z.number().int().describe('-32700 parse, -32600 invalid request, -32601 unknown method, -32602 invalid params, -32603 internal, -32000 a domain failure, -32001 to -32007 the A2A protocol\'s own'),
      message: z.string(),
      data: z.unknown().optional().describe('for -32000 and -32602: {code, status} of the REST error'),
    })
    .optional(),
});

/**
 * POST /api/a2a: JSON-RPC 2.0, a transport of its own (lib/a2a/transport.ts runs each call through
 * the operation core). Whatever JSON arrives is answered in the protocol (a malformed request is a
 * -32600 with HTTP 200), so the body's schema accepts any JSON and says what a request is; the REST
 * envelope answers only what is refused before JSON-RPC starts (token, URL, size, media type, rate).
 */
export const a2aRpc = defineEndpoint({
  id: 'a2a.rpc',
  method: 'POST',
  path: '/api/a2a',
  summary: 'A2A: JSON-RPC 2.0 calls of the a2a.* and moderation.* methods, and message/send, tasks/get, tasks/cancel',
  tag: 'a2a',
  auth: 'user',
  jsonRpc: true,
  envelope: false,
  body: z
    .unknown()
    .describe(
      'A JSON-RPC 2.0 request {jsonrpc: "2.0", id?, method, params?} or a batch (an array of 1 to 50 of them). ' +
        'Methods and their params: GET /api/a2a/methods. Anything else is answered in JSON-RPC: -32700 for text that is not JSON, -32600 for what is not a request.',
    ),
  response: z.union([ZRpcAnswer, z.array(ZRpcAnswer).describe('a batch\'s answers, one per request with an id, matched by id')]),
  errors: ['UNAUTHORIZED', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'],
});

export const a2aMethods = defineEndpoint({
  id: 'a2a.methods',
  method: 'GET',
  path: '/api/a2a/methods',
  summary: 'The A2A methods: names, aliases, what each does, whether it writes, and its params as JSON Schema',
  tag: 'a2a',
  auth: 'public',
  response: z.object({
    success: z.literal(true),
    endpoint: z.string(),
    methods: z.array(
      z.object({
        name: z.string(),
        aliases: z.array(z.string()),
        summary: z.string(),
        group: z.enum(['discovery', 'markets', 'portfolio', 'payments', 'moderation']),
        kind: z.enum(['read', 'write']),
        params: z.record(z.string(), z.unknown()).describe('JSON Schema of the params object'),
      }),
    ),
    protocolMethods: z.array(z.object({ name: z.string(), summary: z.string() })),
  }),
});

export const a2aEndpoints = [a2aAgentCard, a2aAgentCardAlias, a2aRpc, a2aMethods] as const;
