/**
 * The A2A protocol's own methods, over the method table: `message/send` runs the method a
 * message's first data part names ({method, params}, or {operation, params}) for the caller and
 * answers a completed task whose artifact holds exactly the direct call's result (a failed task
 * carries the error); a message without a data part answers an agent message listing the
 * methods. Tasks are stored by owner: `tasks/get` works on any instance, another caller's task is
 * TASK_NOT_FOUND (-32001), and every task is already finished, so `tasks/cancel` of one's own is
 * TASK_NOT_CANCELABLE (-32002).
 */
import 'server-only';
import { and, eq } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { a2aTasks, type TA2aTaskRow } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { AppError } from '@/lib/errors/app-error';
import type { TRpcResponse } from '../jsonrpc';
import { A2A_METHOD_TABLE } from '../methods';

type TPart = { kind?: string; data?: unknown; text?: string };
export type TA2aMessage = { kind?: 'message'; messageId?: string; role?: string; parts?: TPart[]; contextId?: string; taskId?: string; metadata?: Record<string, unknown> };

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The {method, params} a message asks for: its first data part naming a method, if any. */
export const requestedCall = (message: TA2aMessage): { method: string; params: unknown } | null => {
  for (const part of message.parts ?? []) {
    if (part.kind !== 'data' || !isPlainObject(part.data)) continue;
    const method = part.data.method ?? part.data.operation;
    if (typeof method === 'string' && method) return { method, params: part.data.params };
  }
  return null;
};

/** The agent's answer to a message that asks for no method: what it can do. */
export const methodsMessage = (message: TA2aMessage) => ({
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
});

const toTask = (row: TA2aTaskRow) => {
  const outcome = row.outcome as { result?: unknown; error?: { code: number; message: string; data?: unknown } };
  const timestamp = row.createdAt.toISOString();
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
    artifacts:
      row.state === 'completed' ? [{ artifactId: `${row.id}-result`, name: row.method, parts: [{ kind: 'data' as const, data: outcome.result as Record<string, unknown> }] }] : [],
    history: [row.message],
    metadata: { method: row.method },
  };
};

/** Stores the task of a call a message asked for, with its answer, and returns it as A2A shows it. */
export const recordTask = async (input: { caller: TCaller; message: TA2aMessage; method: string; response: TRpcResponse }) => {
  const db = await getDb();
  const failed = 'error' in input.response;
  const outcome = failed ? { error: (input.response as { error: unknown }).error } : { result: (input.response as { result: unknown }).result };
  const [row] = await db
    .insert(a2aTasks)
    .values({
      ownerId: input.caller.userId,
      contextId: input.message.contextId ?? crypto.randomUUID(),
      state: failed ? 'failed' : 'completed',
      method: input.method,
      message: input.message as Record<string, unknown>,
      outcome: outcome as Record<string, unknown>,
      createdAt: now(),
    })
    .returning();
  return toTask(row!);
};

const ownTask = async (caller: TCaller, id: string) => {
  const [row] = await (await getDb()).select().from(a2aTasks).where(and(eq(a2aTasks.id, id), eq(a2aTasks.ownerId, caller.userId)));
  if (!row) throw new AppError('TASK_NOT_FOUND', 'Task not found', { id });
  return row;
};

export const getTask = async (input: { caller: TCaller; id: string }) => toTask(await ownTask(input.caller, input.id));

export const cancelTask = async (input: { caller: TCaller; id: string }) => {
  const row = await ownTask(input.caller, input.id);
  throw new AppError('TASK_NOT_CANCELABLE', `The task is already ${row.state}`, { id: row.id, state: row.state });
};
