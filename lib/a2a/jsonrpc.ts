/**
 * JSON-RPC 2.0, pure: what a request is, the error codes (the standard ones and the A2A
 * protocol's), and the answers. No I/O; lib/a2a/service/dispatch.ts runs the methods.
 */

/** The standard codes, and -32000 for a domain failure (error.data carries the REST code and status). */
export const RPC = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  SERVER_ERROR: -32000,
  // The A2A protocol's own meanings (kept for them only).
  TASK_NOT_FOUND: -32001,
  TASK_NOT_CANCELABLE: -32002,
  PUSH_NOTIFICATION_NOT_SUPPORTED: -32003,
  UNSUPPORTED_OPERATION: -32004,
  CONTENT_TYPE_NOT_SUPPORTED: -32005,
  INVALID_AGENT_RESPONSE: -32006,
  AUTHENTICATED_EXTENDED_CARD_NOT_CONFIGURED: -32007,
  // A2A 1.0's additions.
  EXTENSION_SUPPORT_REQUIRED: -32008,
  VERSION_NOT_SUPPORTED: -32009,
} as const;

export type TRpcId = string | number | null;
export type TRpcError = { code: number; message: string; data?: unknown };
export type TRpcResponse = { jsonrpc: '2.0'; id: TRpcId; result: unknown } | { jsonrpc: '2.0'; id: TRpcId; error: TRpcError };

/** A well-formed call: a notification has no id and gets no answer. */
export type TRpcCall = { id: TRpcId; isNotification: boolean; method: string; params: unknown };

export function rpcResult(id: TRpcId, result: unknown): TRpcResponse {
  return { jsonrpc: '2.0', id, result };
}
export function rpcError(id: TRpcId, code: number, message: string, data?: unknown): TRpcResponse {
  return {
  jsonrpc: '2.0',
  id,
  error: data === undefined ? { code, message } : { code, message, data },
};
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isValidId = (v: unknown): v is TRpcId => v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/**
 * One element of a request (or a batch): a call, or the -32600 answer it gets. The id of an
 * invalid request is echoed when it is itself valid, null otherwise (JSON-RPC 2.0 §5).
 */
export function parseCall(raw: unknown): { ok: true; call: TRpcCall } | { ok: false; response: TRpcResponse } {
  if (!isPlainObject(raw)) return { ok: false, response: rpcError(null, RPC.INVALID_REQUEST, 'Invalid Request: a request is a JSON object') };
  const hasId = Object.hasOwn(raw, 'id');
  const id = hasId && isValidId(raw.id) ? raw.id : null;
  if (raw.jsonrpc !== '2.0') return { ok: false, response: rpcError(id, RPC.INVALID_REQUEST, 'Invalid Request: jsonrpc must be "2.0"') };
  if (typeof raw.method !== 'string' || raw.method === '') {
    return { ok: false, response: rpcError(id, RPC.INVALID_REQUEST, 'Invalid Request: method must be a non-empty string') };
  }
  if (hasId && !isValidId(raw.id)) {
    return { ok: false, response: rpcError(null, RPC.INVALID_REQUEST, 'Invalid Request: id must be a string, a number or null') };
  }
  if (Object.hasOwn(raw, 'params') && !isPlainObject(raw.params) && !Array.isArray(raw.params)) {
    return { ok: false, response: rpcError(id, RPC.INVALID_REQUEST, 'Invalid Request: params must be an object or an array') };
  }
  return { ok: true, call: { id, isNotification: !hasId, method: raw.method, params: raw.params } };
}

/**
 * The shape of a whole body: one request, a batch, or a -32600 answer (an empty batch is one
 * invalid request, answered alone).
 */
export function classifyBody(body: unknown): { kind: 'single'; raw: unknown } | { kind: 'batch'; raws: unknown[] } | { kind: 'invalid'; response: TRpcResponse } {
  if (Array.isArray(body)) {
    if (body.length === 0) return { kind: 'invalid', response: rpcError(null, RPC.INVALID_REQUEST, 'Invalid Request: an empty batch') };
    return { kind: 'batch', raws: body };
  }
  return { kind: 'single', raw: body };
}
