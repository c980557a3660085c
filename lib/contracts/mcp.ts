/**
 * POST /api/mcp: the Model Context Protocol over Streamable HTTP (lib/mcp). Like POST /api/a2a, a
 * transport of its own (JSON-RPC 2.0, marked `x-jsonrpc`): whatever JSON arrives is answered in the
 * protocol, so the body's schema accepts any JSON and says what a message is; the REST envelope
 * answers only what is refused before the protocol starts (credential, URL, size, media type,
 * rate) and what the SDK refuses before any message runs (an unsupported MCP-Protocol-Version).
 * The tools and their JSON Schemas are the protocol's own answer (tools/list), not this document's.
 */
import { z } from 'zod';
import { A2A_RESULTS } from './a2a';
import { defineEndpoint } from './endpoint';

const ZRpcId = z.union([z.string(), z.number(), z.null()]);

/** A method's result (each distinct schema once): a tool's structured content. */
const ZMethodResult = z.union([...new Set(Object.values(A2A_RESULTS))] as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]]);
const ZJsonSchemaObject = z.record(z.string(), z.unknown()).describe('a JSON Schema object');
const ZText = z.object({ type: z.literal('text'), text: z.string() });
const ZResourceBase = { name: z.string(), title: z.string(), description: z.string(), mimeType: z.literal('application/json') };

/** The results of the MCP methods this server answers (and `ping`'s, `{}`). */
const ZMcpResult = z.union([
  z
    .object({
      protocolVersion: z.string(),
      capabilities: z.object({
        tools: z.object({ listChanged: z.boolean() }),
        resources: z.object({ subscribe: z.boolean(), listChanged: z.boolean() }),
      }),
      serverInfo: z.object({ name: z.string(), title: z.string(), version: z.string() }),
      instructions: z.string(),
    })
    .describe('initialize'),
  z
    .object({
      tools: z.array(
        z.object({
          name: z.string().describe('the A2A method name (a2a_… with an underscore is accepted in tools/call too)'),
          description: z.string(),
          inputSchema: ZJsonSchemaObject,
          outputSchema: ZJsonSchemaObject.optional(),
          annotations: z.object({ readOnlyHint: z.boolean(), destructiveHint: z.boolean(), idempotentHint: z.boolean(), openWorldHint: z.boolean() }),
        }),
      ),
    })
    .describe('tools/list'),
  z
    .object({
      content: z.array(ZText).describe('the result (or {error: {code, status, message, details?}}) as JSON text'),
      structuredContent: ZMethodResult.optional().describe('the method\'s result (absent on an error)'),
      isError: z.literal(true).optional().describe('a typed error: the REST code and status in the text'),
    })
    .describe('tools/call'),
  z.object({ resources: z.array(z.object({ uri: z.string(), ...ZResourceBase })) }).describe('resources/list'),
  z.object({ resourceTemplates: z.array(z.object({ uriTemplate: z.string(), ...ZResourceBase })) }).describe('resources/templates/list'),
  z.object({ contents: z.array(z.object({ uri: z.string(), mimeType: z.literal('application/json'), text: z.string() })) }).describe('resources/read'),
]);

const ZMcpErrorData = z.union([
  z
    .object({ code: z.string(), status: z.number().int(), details: z.record(z.string(), z.unknown()).optional(), uri: z.string().optional() })
    .describe('-32002, -32602, -32000 of a resource read: the REST error code, its HTTP status and its details'),
  z.object({ uri: z.string() }).describe('-32002: an address none of ours'),
  z.object({ requestId: z.string() }).describe('-32603: the request id to quote'),
]);

/** One JSON-RPC 2.0 answer: an MCP result or an error. */
const ZMcpAnswer = z.union([
  z.object({ jsonrpc: z.literal('2.0'), id: ZRpcId.describe('the id of the request answered'), result: ZMcpResult.describe('the MCP method\'s result; ping answers {}') }),
  z.object({
    jsonrpc: z.literal('2.0'),
    id: ZRpcId.describe('the id of the request answered (null when it could not be read)'),
    error: z.object({
      code: z
        .number()
        .int()
        .describe('-32700 parse, -32600 invalid request, -32601 unknown method, -32602 invalid params or unknown tool, -32603 internal, -32002 unknown resource, -32000 a domain failure'),
      message: z.string(),
      data: ZMcpErrorData.optional(),
    }),
  }),
]);

export const mcpRpc = defineEndpoint({
  id: 'mcp.rpc',
  method: 'POST',
  path: '/api/mcp',
  summary: 'MCP (Streamable HTTP, stateless, JSON answers): initialize, tools/list and tools/call of the A2A methods, resources/list, resources/templates/list, resources/read',
  tag: 'a2a',
  auth: 'user',
  // Any caller with a bearer credential reaches the transport; each tool's method declares what it requires.
  requires: [],
  jsonRpc: true,
  envelope: false,
  body: z
    .unknown()
    .describe(
      'A JSON-RPC 2.0 message of MCP {jsonrpc: "2.0", id?, method, params?} (or an array of them). Send Authorization: Bearer <an API key or an access token>; ' +
        'a cookie is not read. Anything else is answered in JSON-RPC: -32700 for text that is not JSON, -32600 for what is not a message.',
    ),
  response: z.union([ZMcpAnswer, z.array(ZMcpAnswer).describe("an array's answers, one per request with an id")]),
  errors: ['UNAUTHORIZED', 'VALIDATION_ERROR', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'],
});

export const mcpEndpoints = [mcpRpc] as const;
