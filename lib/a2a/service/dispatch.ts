/**
 * Runs JSON-RPC calls: each call of a method goes through the operation core like a REST request
 * (its own rate-limit count, auth, params validated by the method's schema, the deadline, a
 * banned caller's writes refused), then the method's service, as a call of the HTTP request the
 * transport opened (lib/operations/request.ts): the credentials verified once for all of them.
 * `runCall` dispatches a call by its name (a protocol method, the table's, or an error);
 * `message/send` runs the method its message names through `runMethod` directly, not through the
 * dispatcher again. Errors become JSON-RPC errors: invalid params -32602, a domain failure
 * -32000, both with `data: {code, status}` carrying the REST error code and status; anything else
 * -32603 with a request id only.
 */
import 'server-only';
import type { TCaller } from '@/lib/auth/caller';
import { env } from '@/lib/env';
import { isAppError } from '@/lib/errors/app-error';
import { invocationOf, type TRequest } from '@/lib/operations/request';
import { runOperation, type TOperation } from '@/lib/operations/run-operation';
import { z } from 'zod';
import { ZIdParam } from '@/lib/contracts/common';
import { RPC, rpcError, rpcResult, type TRpcCall, type TRpcResponse } from '../jsonrpc';
import { findMethod } from '../methods';
import type { TA2aMethod } from '../methods/types';
import { cancelTask, getTask, methodsMessage, recordTask, requestedCall, type TA2aMessage } from './tasks';

export type TA2aInvocation = {
  /** The HTTP request the calls came in, opened by the transport (its claims verified once). */
  request: TRequest;
  origin: string;
  /**
   * The HTTP request's Idempotency-Key: it applies to each money method it carries. A single call
   * uses it as is; a call in a batch as `<key>:<the call's id>`, so a retried batch repeats each
   * of its calls once and two calls of one batch never share a key.
   */
  idempotencyKey?: string | null;
  batch?: boolean;
};

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const errorToRpc = (id: TRpcCall['id'], error: unknown, requestId: string): TRpcResponse => {
  if (isAppError(error)) {
    const data = { code: error.code, status: error.status, ...(error.details ? { details: error.details } : {}) };
    if (error.code === 'VALIDATION_ERROR' || error.code === 'INVALID_PARAMETER') return rpcError(id, RPC.INVALID_PARAMS, `Invalid params: ${error.message}`, data);
    if (error.code === 'TASK_NOT_FOUND') return rpcError(id, RPC.TASK_NOT_FOUND, error.message, data);
    if (error.code === 'TASK_NOT_CANCELABLE') return rpcError(id, RPC.TASK_NOT_CANCELABLE, error.message, data);
    return rpcError(id, RPC.SERVER_ERROR, error.message, data);
  }
  console.error(`[a2a] call failed (request ${requestId}):`, error);
  return rpcError(id, RPC.INTERNAL_ERROR, 'Internal error', { requestId });
};

/** The protocol's methods this agent does not offer (its card says streaming and push notifications: false). */
const UNSUPPORTED: Record<string, number> = {
  'message/stream': RPC.UNSUPPORTED_OPERATION,
  'tasks/resubscribe': RPC.UNSUPPORTED_OPERATION,
  'tasks/pushNotificationConfig/set': RPC.PUSH_NOTIFICATION_NOT_SUPPORTED,
  'tasks/pushNotificationConfig/get': RPC.PUSH_NOTIFICATION_NOT_SUPPORTED,
  'tasks/pushNotificationConfig/list': RPC.PUSH_NOTIFICATION_NOT_SUPPORTED,
  'tasks/pushNotificationConfig/delete': RPC.PUSH_NOTIFICATION_NOT_SUPPORTED,
  'agent/getAuthenticatedExtendedCard': RPC.AUTHENTICATED_EXTENDED_CARD_NOT_CONFIGURED,
};

const ZMessage = z.looseObject({
  kind: z.literal('message').optional(),
  messageId: z.string().max(200).optional(),
  role: z.string().max(20).optional(),
  parts: z.array(z.looseObject({ kind: z.string().max(20).optional() })).max(20),
  contextId: z.string().max(200).optional(),
  taskId: z.string().max(200).optional(),
});
const ZTaskQuery = z.looseObject({ id: ZIdParam, historyLength: z.number().int().min(0).optional() });

/** message/send, tasks/get and tasks/cancel, each one operation of the core like a method. */
type TProtocolMethod = { op: TOperation; run: (ctx: { caller: TCaller }, params: never, call: TRpcCall, inv: TA2aInvocation) => Promise<unknown> };
const PROTOCOL: Record<string, TProtocolMethod> = {
  'message/send': {
    // Requires nothing of its own: the method a message carries is checked as its own call.
    op: { id: 'a2a.message/send', method: 'POST', auth: 'user', requires: [], body: z.looseObject({ message: ZMessage }) },
    run: async ({ caller }, params: { message: TA2aMessage }, call, inv) => {
      const asked = requestedCall(params.message);
      if (!asked) return methodsMessage(params.message);
      // Only the table's methods run inside a message (no message/send within a message), each
      // as a call of its own (its rule, its params, its permissions), not through the dispatcher.
      const method = findMethod(asked.method);
      const response = method
        ? (await runMethod(method, { id: call.id, isNotification: false, method: asked.method, params: asked.params }, inv)).response
        : rpcError(call.id, RPC.METHOD_NOT_FOUND, `Method not found: ${asked.method}`);
      return recordTask({ caller, message: params.message, method: asked.method, response });
    },
  },
  'tasks/get': {
    op: { id: 'a2a.tasks/get', method: 'GET', auth: 'user', requires: ['read'], body: ZTaskQuery },
    run: ({ caller }, params: { id: string }) => getTask({ caller, id: params.id }),
  },
  'tasks/cancel': {
    op: { id: 'a2a.tasks/cancel', method: 'POST', auth: 'user', requires: [], body: ZTaskQuery },
    run: ({ caller }, params: { id: string }) => cancelTask({ caller, id: params.id }),
  },
};

/**
 * A method of the table as the operation the core runs: a read is a GET (a banned caller may
 * call it), a write a POST; its permissions, rule, params (as the body) and idempotency.
 */
export function methodOperation(method: TA2aMethod): TOperation {
  return {
    id: `a2a.${method.name}`,
    method: method.kind === 'read' ? 'GET' : 'POST',
    auth: 'user',
    requires: method.requires,
    rateLimit: method.rateLimit,
    body: method.params,
    fieldErrors: method.fieldErrors,
    idempotent: method.idempotent,
  };
}

/** What a call answers (also computed for a notification, which the transport then drops); its count is on the request. */
type TCallAnswer = { response: TRpcResponse; replayed?: boolean };

/** One call, dispatched by its method's name. */
export async function runCall(call: TRpcCall, inv: TA2aInvocation): Promise<TCallAnswer> {
  if (Object.hasOwn(UNSUPPORTED, call.method)) {
    return { response: rpcError(call.id, UNSUPPORTED[call.method]!, `${call.method} is not supported by this agent (see its card's capabilities)`) };
  }
  const protocol = Object.hasOwn(PROTOCOL, call.method) ? PROTOCOL[call.method]! : undefined;
  if (protocol) {
    const outcome = await runOperation(protocol.op, { ...invocationOf(inv.request), readBody: async () => (isPlainObject(call.params) ? call.params : {}) }, (ctx) =>
      protocol.run({ caller: ctx.caller! }, ctx.body as never, call, inv),
    );
    return { response: outcome.ok ? rpcResult(call.id, outcome.value) : errorToRpc(call.id, outcome.error, inv.request.requestId) };
  }
  const method = findMethod(call.method);
  if (!method) return { response: rpcError(call.id, RPC.METHOD_NOT_FOUND, `Method not found: ${call.method}`) };
  return runMethod(method, call, inv);
}

/** One call of a method of the table, through the operation core. */
async function runMethod(method: TA2aMethod, call: TRpcCall, inv: TA2aInvocation): Promise<TCallAnswer> {
  // Params by name; a missing params is {} (the reference agent sends none), a one-object array its object.
  let raw: unknown = call.params ?? {};
  if (Array.isArray(raw)) {
    if (raw.length === 0) raw = {};
    else if (raw.length === 1 && isPlainObject(raw[0])) raw = raw[0];
    else return { response: rpcError(call.id, RPC.INVALID_PARAMS, 'Invalid params: pass them by name, as an object') };
  }
  const params = method.normalize ? method.normalize(raw as Record<string, unknown>) : raw;
  const op = methodOperation(method);
  const idempotencyKey = method.idempotent && inv.idempotencyKey ? (inv.batch ? `${inv.idempotencyKey}:${JSON.stringify(call.id)}` : inv.idempotencyKey) : undefined;
  const outcome = await runOperation(op, { ...invocationOf(inv.request), readBody: async () => params, idempotencyKey }, (ctx) =>
    method.run({ caller: ctx.caller!, origin: inv.origin }, ctx.body as never),
  );
  if (!outcome.ok) return { response: errorToRpc(call.id, outcome.error, inv.request.requestId) };
  if (env().isTest) {
    // In tests every result is held to the method's declared schema, as REST answers are to OpenAPI.
    const checked = method.result.safeParse(outcome.value);
    if (!checked.success) {
      console.error(`[a2a] ${method.name} answered outside its result schema:`, checked.error.issues);
      return { response: rpcError(call.id, RPC.INTERNAL_ERROR, `Result breaks the schema of ${method.name}`, { issues: checked.error.issues }) };
    }
  }
  return { response: rpcResult(call.id, outcome.value), replayed: outcome.replayed };
}
