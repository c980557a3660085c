/**
 * Runs JSON-RPC calls: each call of a method goes through the operation core like a REST request
 * (its own rate-limit count, auth, params validated by the method's schema, the deadline, a
 * banned caller's writes refused), then the method's service, as a call of the HTTP request the
 * transport opened (lib/operations/request.ts): the credentials verified once for all of them.
 * `runCall` dispatches a call by its name (a protocol method, the table's, or an error);
 * `message/send` runs the method its message names through `runMethod` directly, not through the
 * dispatcher again. A2A 1.0's methods (`SendMessage`, `GetTask`, `ListTasks`, the push configs, …)
 * sit beside 0.3's, dispatched by name, each an operation of the core too, answering 1.0's
 * ProtoJSON shapes (lib/a2a/v1/shapes.ts) over the same tasks. Errors become JSON-RPC errors: invalid params -32602, a domain failure
 * -32000, both with `data: {code, status}` carrying the REST error code and status; anything else
 * -32603 with a request id only.
 */
import 'server-only';
import type { TCaller } from '@/lib/auth/caller';
import { env } from '@/lib/env';
import { AppError, isAppError } from '@/lib/errors/app-error';
import { invocationOf, type TRequest } from '@/lib/operations/request';
import { runOperation, type TOperation } from '@/lib/operations/run-operation';
import { z } from 'zod';
import { ZIdParam } from '@/lib/contracts/common';
import { RPC, rpcError, rpcResult, type TRpcCall, type TRpcResponse } from '../jsonrpc';
import { findMethod } from '../methods';
import type { TA2aMethod } from '../methods/types';
import { createPushConfig, deletePushConfig, getPushConfig, listPushConfigs, type TPushConfigInput } from '../push/configs';
import '../push/deliver';
import { checkPushUrl } from '../push/url';
import {
  V1_TASK_STATES,
  decodePageToken,
  encodePageToken,
  messageFromV1,
  sendMessageResult,
  stateFromV1,
  taskToV1,
  type TLegacyTask,
} from '../v1/shapes';
import { cancelTask, getTask, listTasks, methodsMessage, ownTask, recordTask, requestedCall, storedTask, type TA2aMessage } from './tasks';

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

/** A failure that is the A2A protocol's own code, not a domain error (UnsupportedOperation). */
class ProtocolFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const errorToRpc = (id: TRpcCall['id'], error: unknown, requestId: string): TRpcResponse => {
  if (error instanceof ProtocolFailure) return rpcError(id, error.code, error.message);
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

/** 0.3's methods this agent does not offer (its push notifications and resubscription are 1.0's: the card's supportedInterfaces). */
const UNSUPPORTED: Record<string, number> = {
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

/**
 * What a message asks for, run for the caller: the agent's list of methods when it names none;
 * else the table's method it names (never a protocol method: no message/send within a message),
 * as a call of its own (its rule, its params, its permissions), not through the dispatcher, and
 * the task that records it.
 */
async function runMessage(caller: TCaller, message: TA2aMessage, call: TRpcCall, inv: TA2aInvocation) {
  const asked = requestedCall(message);
  if (!asked) return methodsMessage(message);
  const method = findMethod(asked.method);
  const response = method
    ? (await runMethod(method, { id: call.id, isNotification: false, method: asked.method, params: asked.params }, inv)).response
    : rpcError(call.id, RPC.METHOD_NOT_FOUND, `Method not found: ${asked.method}`);
  return recordTask({ caller, message, method: asked.method, response });
}

/** message/send, tasks/get and tasks/cancel, each one operation of the core like a method. */
type TProtocolMethod = { op: TOperation; run: (ctx: { caller: TCaller }, params: never, call: TRpcCall, inv: TA2aInvocation) => Promise<unknown> };
const PROTOCOL: Record<string, TProtocolMethod> = {
  'message/send': {
    // Requires nothing of its own: the method a message carries is checked as its own call.
    op: { id: 'a2a.message/send', method: 'POST', auth: 'user', requires: [], body: z.looseObject({ message: ZMessage }) },
    run: ({ caller }, params: { message: TA2aMessage }, call, inv) => runMessage(caller, params.message, call, inv),
  },
  'message/stream': {
    // 0.3's stream: every task is finished at once, so it carries the one final task (or message) and ends.
    op: { id: 'a2a.message/stream', method: 'POST', auth: 'user', requires: [], body: z.looseObject({ message: ZMessage }) },
    run: ({ caller }, params: { message: TA2aMessage }, call, inv) => runMessage(caller, params.message, call, inv),
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

// ---- A2A 1.0 (ProtoJSON shapes: lib/a2a/v1/shapes.ts) ----

const ZV1Message = z.looseObject({
  messageId: z.string().max(200).optional(),
  role: z.string().max(20).optional(),
  parts: z.array(z.looseObject({})).max(20),
  contextId: z.string().max(200).optional(),
  taskId: z.string().max(200).optional(),
});
const ZTenant = z.string().max(200).optional();
const ZAuthentication = z.object({ scheme: z.string().min(1).max(50), credentials: z.string().max(2000).optional() });
const ZPushConfig = z.looseObject({
  tenant: ZTenant,
  taskId: ZIdParam,
  id: z.string().min(1).max(100).optional(),
  url: z.string().min(1).max(2048),
  token: z.string().max(500).optional(),
  authentication: ZAuthentication.optional(),
});
const ZSendMessage = z.looseObject({
  tenant: ZTenant,
  message: ZV1Message,
  configuration: z
    .looseObject({ taskPushNotificationConfig: ZPushConfig.omit({ taskId: true }).extend({ taskId: z.string().max(200).optional() }).optional() })
    .optional(),
});
const ZV1TaskQuery = z.looseObject({ tenant: ZTenant, id: ZIdParam, historyLength: z.number().int().min(0).optional() });
const ZConfigQuery = z.looseObject({ tenant: ZTenant, taskId: ZIdParam, id: z.string().min(1).max(100) });
const ZListTasks = z.looseObject({
  tenant: ZTenant,
  contextId: z.string().max(200).optional(),
  status: z.union([z.enum(V1_TASK_STATES as [string, ...string[]]), z.literal('TASK_STATE_UNSPECIFIED'), z.number().int().min(0).max(8)]).optional(),
  pageSize: z.number().int().min(1).max(100).optional(),
  pageToken: z.string().max(500).optional(),
  historyLength: z.number().int().min(0).optional(),
  statusTimestampAfter: z.iso.datetime({ offset: true }).optional(),
  includeArtifacts: z.boolean().optional(),
});

/** ListTasks' page when the caller names none. */
export const LIST_TASKS_DEFAULT_PAGE_SIZE = 50;

type TSendParams = z.output<typeof ZSendMessage>;

/**
 * SendMessage and SendStreamingMessage: the 1.0 message read as 0.3's, the method it names run
 * exactly as message/send runs it, the task (or the agent's message) written in 1.0's shapes. A
 * `configuration.taskPushNotificationConfig` is checked before anything runs and made for the new task.
 */
async function sendV1Message(caller: TCaller, params: TSendParams, call: TRpcCall, inv: TA2aInvocation) {
  const message = messageFromV1(params.message);
  const push = params.configuration?.taskPushNotificationConfig;
  if (push) checkPushUrl(push.url, { production: env().isProduction });
  const answer = await runMessage(caller, message, call, inv);
  if (push && answer.kind === 'task') {
    const { taskId: _ignored, tenant: _tenant, ...rest } = push;
    await createPushConfig({ caller, config: { ...(rest as Omit<TPushConfigInput, 'taskId'>), taskId: answer.id } });
  }
  return sendMessageResult(answer.kind === 'task' ? (answer as TLegacyTask) : answer);
}

const v1Task = async (caller: TCaller, id: string) => taskToV1((await getTask({ caller, id })) as TLegacyTask);

const PROTOCOL_V1: Record<string, TProtocolMethod> = {
  SendMessage: {
    op: { id: 'a2a.SendMessage', method: 'POST', auth: 'user', requires: [], body: ZSendMessage },
    run: ({ caller }, params: TSendParams, call, inv) => sendV1Message(caller, params, call, inv),
  },
  SendStreamingMessage: {
    // Every task is finished at once: the stream carries the final task (or message) and ends.
    op: { id: 'a2a.SendStreamingMessage', method: 'POST', auth: 'user', requires: [], body: ZSendMessage },
    run: ({ caller }, params: TSendParams, call, inv) => sendV1Message(caller, params, call, inv),
  },
  GetTask: {
    op: { id: 'a2a.GetTask', method: 'GET', auth: 'user', requires: ['read'], body: ZV1TaskQuery },
    run: ({ caller }, params: { id: string }) => v1Task(caller, params.id),
  },
  ListTasks: {
    op: { id: 'a2a.ListTasks', method: 'GET', auth: 'user', requires: ['read'], body: ZListTasks },
    run: async ({ caller }, params: z.output<typeof ZListTasks>) => {
      const pageSize = params.pageSize ?? LIST_TASKS_DEFAULT_PAGE_SIZE;
      const after = params.pageToken ? decodePageToken(params.pageToken) : null;
      if (params.pageToken && !after) throw new AppError('INVALID_PARAMETER', 'Invalid pageToken: pass the nextPageToken of a previous page', { field: 'pageToken' });
      const wanted = params.status === undefined || params.status === 'TASK_STATE_UNSPECIFIED' || params.status === 0 ? null : stateFromV1(params.status);
      // A state no stored task is in (every task finishes at once, completed or failed): none.
      if (wanted && wanted !== 'completed' && wanted !== 'failed') return { tasks: [], nextPageToken: '', pageSize, totalSize: 0 };
      const page = await listTasks({
        caller,
        limit: pageSize,
        after,
        contextId: params.contextId || undefined,
        state: (wanted ?? undefined) as 'completed' | 'failed' | undefined,
        since: params.statusTimestampAfter ? new Date(params.statusTimestampAfter) : undefined,
      });
      const last = page.rows.at(-1);
      return {
        tasks: page.rows.map((r) => taskToV1(storedTask(r) as TLegacyTask, { includeArtifacts: params.includeArtifacts === true })),
        nextPageToken: page.more && last ? encodePageToken(last) : '',
        pageSize,
        totalSize: page.total,
      };
    },
  },
  CancelTask: {
    op: { id: 'a2a.CancelTask', method: 'POST', auth: 'user', requires: [], body: ZV1TaskQuery },
    run: ({ caller }, params: { id: string }) => cancelTask({ caller, id: params.id }),
  },
  SubscribeToTask: {
    op: { id: 'a2a.SubscribeToTask', method: 'GET', auth: 'user', requires: ['read'], body: ZV1TaskQuery },
    run: async ({ caller }, params: { id: string }) => {
      const row = await ownTask(caller, params.id);
      // As the 1.0 SDK's server answers: a task in a terminal state cannot be subscribed to (and every task here is).
      throw new ProtocolFailure(RPC.UNSUPPORTED_OPERATION, `Task ${row.id} is already ${row.state}: there is nothing to subscribe to (GetTask answers it)`);
    },
  },
  GetExtendedAgentCard: {
    op: { id: 'a2a.GetExtendedAgentCard', method: 'GET', auth: 'user', requires: ['read'], body: z.looseObject({ tenant: ZTenant }) },
    run: async () => {
      throw new ProtocolFailure(RPC.UNSUPPORTED_OPERATION, 'This agent has no extended card: its public card is all there is (capabilities.extendedAgentCard is not set)');
    },
  },
  CreateTaskPushNotificationConfig: {
    op: { id: 'a2a.CreateTaskPushNotificationConfig', method: 'POST', auth: 'user', requires: ['read'], body: ZPushConfig },
    run: ({ caller }, params: z.output<typeof ZPushConfig>) => createPushConfig({ caller, config: params as TPushConfigInput }),
  },
  GetTaskPushNotificationConfig: {
    op: { id: 'a2a.GetTaskPushNotificationConfig', method: 'GET', auth: 'user', requires: ['read'], body: ZConfigQuery },
    run: ({ caller }, params: { taskId: string; id: string }) => getPushConfig({ caller, taskId: params.taskId, id: params.id }),
  },
  ListTaskPushNotificationConfigs: {
    op: {
      id: 'a2a.ListTaskPushNotificationConfigs',
      method: 'GET',
      auth: 'user',
      requires: ['read'],
      body: z.looseObject({ tenant: ZTenant, taskId: ZIdParam, pageSize: z.number().int().min(0).max(100).optional(), pageToken: z.string().max(500).optional() }),
    },
    run: ({ caller }, params: { taskId: string }) => listPushConfigs({ caller, taskId: params.taskId }),
  },
  DeleteTaskPushNotificationConfig: {
    op: { id: 'a2a.DeleteTaskPushNotificationConfig', method: 'POST', auth: 'user', requires: ['read'], body: ZConfigQuery },
    run: ({ caller }, params: { taskId: string; id: string }) => deletePushConfig({ caller, taskId: params.taskId, id: params.id }),
  },
};

/** The 1.0 methods whose answer is a text/event-stream (the transport frames it). */
export const STREAMING_METHODS: ReadonlySet<string> = new Set(['SendStreamingMessage', 'SubscribeToTask', 'message/stream']);

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
    ...(method.kind === 'read' && method.reads ? { reads: method.reads } : {}),
    rateLimit: method.rateLimit,
    body: method.params,
    fieldErrors: method.fieldErrors,
    idempotent: method.idempotent,
    keyCaps: method.keyCaps as TOperation['keyCaps'],
  };
}

/** What a call answers (also computed for a notification, which the transport then drops); its count is on the request. */
type TCallAnswer = { response: TRpcResponse; replayed?: boolean };

/** One call, dispatched by its method's name. */
export async function runCall(call: TRpcCall, inv: TA2aInvocation): Promise<TCallAnswer> {
  if (Object.hasOwn(UNSUPPORTED, call.method)) {
    return { response: rpcError(call.id, UNSUPPORTED[call.method]!, `${call.method} is not supported by this agent (see its card's capabilities)`) };
  }
  const protocol = Object.hasOwn(PROTOCOL, call.method) ? PROTOCOL[call.method]! : Object.hasOwn(PROTOCOL_V1, call.method) ? PROTOCOL_V1[call.method]! : undefined;
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
