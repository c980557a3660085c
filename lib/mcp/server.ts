/**
 * The MCP server of one HTTP request: the official SDK's low-level `Server` with our handlers,
 * built per request (stateless: lib/mcp/README.md says why) for the request the transport opened
 * (lib/operations/request.ts). `initialize`, `ping`, `tools/list`, `resources/list` and
 * `resources/templates/list` answer from the method table and need no operation (the request
 * counts once through `finishRequest`); `tools/call` and `resources/read` are each a call of the
 * operation core, exactly as A2A calls a method (lib/a2a/service/dispatch.ts): the same operation,
 * permissions, rate-limit rule, params schema and Idempotency-Key. Outcomes:
 *   - a tool's value: `structuredContent` (its outputSchema is the method's result) and the same
 *     JSON as text;
 *   - a typed error: a tool result with `isError: true` and `{error: {code, status, message,
 *     details?}}` as text, so the model reads what went wrong (a wrong argument included, as MCP
 *     asks of input errors); no `structuredContent`, which the client would hold to the outputSchema;
 *   - a resource's typed error: -32002 for a 404, -32602 for invalid input, else -32000, each with
 *     `data: {code, status}`; an unknown tool is -32602, an address none of ours -32002;
 *   - a fault: -32603 naming the request id only, logged with it.
 */
import 'server-only';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import pkg from '@/package.json';
import { methodOperation } from '@/lib/a2a/service/dispatch';
import { AppError, isAppError } from '@/lib/errors/app-error';
import { invocationOf, type TRequest } from '@/lib/operations/request';
import { runOperation } from '@/lib/operations/run-operation';
import { RESOURCES, RESOURCE_TEMPLATES, resolveResource } from './resources';
import { findTool, listTools } from './tools';

/** MCP's code for a resource it does not know (the specification's, not the SDK enum's). */
const RESOURCE_NOT_FOUND = -32002;
/** A domain failure, as A2A answers it: data carries the REST code and status. */
const SERVER_ERROR = -32000;

const INSTRUCTIONS =
  'Play-money prediction markets and perpetual futures. The tools are the A2A methods (GET /api/a2a/methods): read markets, ' +
  'your balance and positions, place and cancel orders. Tools that write say so; those that take dryRun: true preview without ' +
  'writing. Errors come back as tool results with isError and {error: {code, status, message}}. Resources: playmoney://portfolio, ' +
  'playmoney://markets/{marketId}, playmoney://perps/{ticker}.';

export type TMcpInvocation = {
  /** The HTTP request the messages came in, opened by the transport (its claims verified once). */
  request: TRequest;
  origin: string;
  /** The request's Idempotency-Key: a single tool call uses it as is, a call in a batch as `<key>:<its id>` (as A2A). */
  idempotencyKey: string | null;
  batch: boolean;
  /** Set when a call answered the stored result of an earlier one with the same key. */
  replayed: boolean;
};

/** One validator for every server: the SDK would build an Ajv instance per `Server` (it validates only elicitation answers, which we never ask). */
let validator: AjvJsonSchemaValidator | undefined;

const errorData = (e: AppError) => ({ code: e.code, status: e.status, ...(e.details ? { details: e.details } : {}) });

const fault = (error: unknown, requestId: string): McpError => {
  console.error(`[mcp] call failed (request ${requestId}):`, error);
  return new McpError(ErrorCode.InternalError, 'Internal error', { requestId });
};

/** A tool's typed error as a tool result the model reads; a fault as a JSON-RPC error. */
const toolError = (error: unknown, requestId: string): CallToolResult => {
  if (!isAppError(error)) throw fault(error, requestId);
  const payload = { error: { ...errorData(error), message: error.message } };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(payload) }] };
};

const resourceError = (error: unknown, uri: string, requestId: string): McpError => {
  if (!isAppError(error)) return fault(error, requestId);
  const data = { uri, ...errorData(error) };
  if (error.status === 404) return new McpError(RESOURCE_NOT_FOUND, error.message, data);
  if (error.code === 'VALIDATION_ERROR' || error.code === 'INVALID_PARAMETER') return new McpError(ErrorCode.InvalidParams, error.message, data);
  return new McpError(SERVER_ERROR, error.message, data);
};

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The server for one request, its handlers bound to it. */
export function createMcpServer(inv: TMcpInvocation): Server {
  const server = new Server(
    { name: 'playmoney', title: 'Play Money', version: pkg.version },
    {
      capabilities: { tools: { listChanged: false }, resources: { subscribe: false, listChanged: false } },
      instructions: INSTRUCTIONS,
      jsonSchemaValidator: (validator ??= new AjvJsonSchemaValidator()),
    },
  );
  const { requestId } = inv.request;

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listTools() }));

  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const method = findTool(req.params.name);
    if (!method) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${req.params.name}`);
    const raw = isPlainObject(req.params.arguments) ? req.params.arguments : {};
    const params = method.normalize ? method.normalize(raw) : raw;
    const idempotencyKey = method.idempotent && inv.idempotencyKey ? (inv.batch ? `${inv.idempotencyKey}:${JSON.stringify(extra.requestId)}` : inv.idempotencyKey) : undefined;
    const outcome = await runOperation(methodOperation(method), { ...invocationOf(inv.request), readBody: async () => params, idempotencyKey }, (ctx) =>
      method.run({ caller: ctx.caller!, origin: inv.origin }, ctx.body as never),
    );
    if (!outcome.ok) return toolError(outcome.error, requestId);
    if (outcome.replayed) inv.replayed = true;
    // A method answers an object (its result schema's root): the structured content as is.
    const value = outcome.value as Record<string, unknown>;
    return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: RESOURCES }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: RESOURCE_TEMPLATES }));

  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    const { uri } = req.params;
    const read = resolveResource(uri);
    if (!read) throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });
    const outcome = await runOperation(read.op, { ...invocationOf(inv.request), readBody: async () => read.input }, (ctx) =>
      read.run({ caller: ctx.caller!, origin: inv.origin }, ctx.body as never),
    );
    if (!outcome.ok) throw resourceError(outcome.error, uri, requestId);
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(outcome.value) }] };
  });

  return server;
}
