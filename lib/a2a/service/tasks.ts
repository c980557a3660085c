/**
 * The A2A protocol's own methods, over the method table: `message/send` runs the method a
 * message's first data part names ({method, params}, or {operation, params}) for the caller and
 * answers a completed task whose artifact holds exactly the direct call's result (a failed task
 * carries the error); a message without a data part answers an agent message listing the
 * methods. Tasks are stored by owner: `tasks/get` works on any instance, another caller's task is
 * TASK_NOT_FOUND (-32001), and every task is already finished, so `tasks/cancel` of one's own is
 * TASK_NOT_CANCELABLE (-32002).
 *
 * Bounded storage: a task row keeps what tasks/get answers and nothing else (not the asking
 * message: A2A's `history` is optional and a client has its own message), the outcome as the exact
 * JSON text first answered (so tasks/get gives back the same bytes) and at most
 * TASK_OUTCOME_MAX_BYTES of it. A larger result is still answered in full by message/send, the
 * call that ran it; the stored task then says, in its artifact, that the result was not kept
 * (tasks/get answers the task as it stands, as A2A's `tasks/get` does, rather than failing). An
 * oversize error keeps its code and message. The tick deletes tasks after a day (../retention.ts).
 */
import 'server-only';
import { and, count, desc, eq, gt, lt, or, type SQL } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { a2aTasks, type TA2aTaskRow } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import type { TRpcError, TRpcResponse } from '../jsonrpc';
import { A2A_METHOD_TABLE } from '../methods';

/** The most a task keeps of its outcome: UTF-8 bytes of the outcome's JSON text. */
export const TASK_OUTCOME_MAX_BYTES = 4096;
/** The longest method name a message may ask for (the table's are far shorter). */
export const MAX_METHOD_NAME_LENGTH = 100;

type TPart = { kind?: string; data?: unknown; text?: string };
export type TA2aMessage = { kind?: 'message'; messageId?: string; role?: string; parts?: TPart[]; contextId?: string; taskId?: string; metadata?: Record<string, unknown> };

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The {method, params} a message asks for: its first data part naming a method, if any. */
export function requestedCall(message: TA2aMessage): { method: string; params: unknown } | null {
  for (const part of message.parts ?? []) {
    if (part.kind !== 'data' || !isPlainObject(part.data)) continue;
    const method = part.data.method ?? part.data.operation;
    if (typeof method !== 'string' || !method) continue;
    if (method.length > MAX_METHOD_NAME_LENGTH) {
      throw new AppError('VALIDATION_ERROR', `The method a message names is at most ${MAX_METHOD_NAME_LENGTH} characters`, { field: 'message.parts.data.method' });
    }
    return { method, params: part.data.params };
  }
  return null;
}

/** The agent's answer to a message that asks for no method: what it can do. */
export function methodsMessage(message: TA2aMessage) {
  return {
  kind: 'message' as const,
  role: 'agent' as const,
  messageId: crypto.randomUUID(),
  ...(message.contextId ? { contextId: message.contextId } : {}),
  parts: [
    {
      kind: 'text' as const,
      text: `Send a data part {"method": …, "params": {…}} with one of: ${A2A_METHOD_TABLE.map((m) => m.name).join(', ')}.`,
    },
    { kind: 'data' as const, data: { methods: A2A_METHOD_TABLE.map((m) => ({ name: m.name, summary: m.summary })) } },
  ],
};
}

/** What a task holds: the result, the error, or (a result over the cap) how large it was. */
type TOutcome = { result?: unknown; error?: TRpcError; omitted?: { bytes: number } };

const byteLength = (text: string) => Buffer.byteLength(text, 'utf8');

/** The outcome's text as stored: the exact JSON first answered when it fits, else its bounded form. */
const storedOutcome = (outcome: TOutcome): string => {
  const text = JSON.stringify(outcome);
  const bytes = byteLength(text);
  if (bytes <= TASK_OUTCOME_MAX_BYTES) return text;
  if (!outcome.error) return JSON.stringify({ omitted: { bytes: byteLength(JSON.stringify(outcome.result)) } });
  // An error keeps its JSON-RPC code, its message and the REST code and status; details go.
  const data = outcome.error.data as { code?: unknown; status?: unknown } | undefined;
  const kept = typeof data?.code === 'string' && typeof data.status === 'number' ? { data: { code: data.code, status: data.status } } : {};
  return JSON.stringify({ error: { code: outcome.error.code, message: outcome.error.message.slice(0, 500), ...kept } });
};

const omittedText = (bytes: number) =>
  `The result was ${bytes} bytes, more than the ${TASK_OUTCOME_MAX_BYTES} a task keeps: message/send answered it in full; send the message again for a fresh one.`;

const toTask = (row: Pick<TA2aTaskRow, 'id' | 'contextId' | 'state' | 'method' | 'createdAt'>, outcome: TOutcome) => {
  const timestamp = row.createdAt.toISOString();
  const artifact = outcome.omitted
    ? {
        artifactId: `${row.id}-result`,
        name: row.method,
        parts: [{ kind: 'text' as const, text: omittedText(outcome.omitted.bytes) }],
        metadata: { omitted: true, bytes: outcome.omitted.bytes },
      }
    : { artifactId: `${row.id}-result`, name: row.method, parts: [{ kind: 'data' as const, data: outcome.result as Record<string, unknown> }] };
  return {
    kind: 'task' as const,
    id: row.id,
    contextId: row.contextId,
    status:
      row.state === 'completed'
        ? { state: 'completed' as const, timestamp }
        : {
            state: 'failed' as const,
            timestamp,
            message: { kind: 'message' as const, role: 'agent' as const, messageId: `${row.id}-error`, taskId: row.id, contextId: row.contextId, parts: [{ kind: 'data' as const, data: { error: outcome.error } }] },
          },
    artifacts: row.state === 'completed' ? [artifact] : [],
    metadata: { method: row.method },
  };
};

/**
 * Stores the task of a call a message asked for, with its answer, and returns it as A2A shows it:
 * with the whole result (the stored task keeps it when it fits TASK_OUTCOME_MAX_BYTES).
 */
export async function recordTask(input: { caller: TCaller; message: TA2aMessage; method: string; response: TRpcResponse }) {
  const db = await getDb();
  const failed = 'error' in input.response;
  const outcome: TOutcome = failed ? { error: (input.response as { error: TRpcError }).error } : { result: (input.response as { result: unknown }).result };
  const [row] = await db
    .insert(a2aTasks)
    .values({
      ownerId: input.caller.userId,
      contextId: input.message.contextId ?? crypto.randomUUID(),
      state: failed ? 'failed' : 'completed',
      method: input.method,
      outcome: storedOutcome(outcome),
      orderId: placedOrderId(outcome.result),
      createdAt: now(),
    })
    .returning();
  return toTask(row!, outcome);
}

/** The order a call placed (`order.id` of its result: a2a.placeOrder, a2a.placePerpOrder), whose updates are pushed. */
function placedOrderId(result: unknown): string | null {
  if (!isPlainObject(result) || !isPlainObject(result.order)) return null;
  const id = result.order.id;
  return typeof id === 'string' && id.length <= 200 ? id : null;
}

/** The task as stored: its outcome parsed from the text first answered (same keys, same order). */
export function storedTask(row: TA2aTaskRow) {
  return toTask(row, JSON.parse(row.outcome) as TOutcome);
}

/** The caller's task row (TASK_NOT_FOUND for another caller's or none). */
export async function ownTask(caller: TCaller, id: string): Promise<TA2aTaskRow> {
  const [row] = await (await getDb()).select().from(a2aTasks).where(and(eq(a2aTasks.id, id), eq(a2aTasks.ownerId, caller.userId)));
  if (!row) throw new AppError('TASK_NOT_FOUND', 'Task not found', { id });
  return row;
}

export async function getTask(input: { caller: TCaller; id: string }) {
  return storedTask(await ownTask(input.caller, input.id));
}

export async function cancelTask(input: { caller: TCaller; id: string }) {
  const row = await ownTask(input.caller, input.id);
  throw new AppError('TASK_NOT_CANCELABLE', `The task is already ${row.state}`, { id: row.id, state: row.state });
}

/**
 * The caller's tasks, newest first, a page after `after` (A2A 1.0's ListTasks): filtered by
 * context, by state (`completed`, `failed`: what a stored task can be) and by a status time after
 * a moment (a task's status time is when it was made); `total` counts every match.
 */
export async function listTasks(input: {
  caller: TCaller;
  limit: number;
  after?: { createdAt: Date; id: string } | null;
  contextId?: string;
  state?: 'completed' | 'failed';
  since?: Date;
}) {
  const db = await getDb();
  const filters: SQL[] = [eq(a2aTasks.ownerId, input.caller.userId)];
  if (input.contextId) filters.push(eq(a2aTasks.contextId, input.contextId));
  if (input.state) filters.push(eq(a2aTasks.state, input.state));
  if (input.since) filters.push(gt(a2aTasks.createdAt, input.since));
  const where = and(...filters);
  const after = input.after;
  const page = await db
    .select()
    .from(a2aTasks)
    .where(after ? and(where, or(lt(a2aTasks.createdAt, after.createdAt), and(eq(a2aTasks.createdAt, after.createdAt), lt(a2aTasks.id, after.id)))) : where)
    .orderBy(desc(a2aTasks.createdAt), desc(a2aTasks.id))
    .limit(input.limit + 1);
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(a2aTasks).where(where);
  const rows = page.slice(0, input.limit);
  return { rows, more: page.length > input.limit, total: Number(total) };
}
