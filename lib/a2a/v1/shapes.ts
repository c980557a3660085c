/**
 * A2A 1.0 on the wire, pure: the ProtoJSON shapes the 1.0 protocol speaks (a Part without `kind`,
 * `role: "ROLE_USER"`, task states as "TASK_STATE_COMPLETED", SendMessage's `{task}` or
 * `{message}`, a StreamResponse's `{task}` or `{statusUpdate}`), mapped to and from the 0.3 shapes
 * lib/a2a/service/tasks.ts keeps and answers, so one store and one way of running a call serve
 * both versions. And the version a request asks for (the `A2A-Version` header). No I/O.
 */

/** The protocol versions POST /api/a2a speaks (the card's supportedInterfaces). */
export const A2A_V1_VERSION = '1.0';
export const A2A_LEGACY_VERSION = '0.3';
export const A2A_VERSION_HEADER = 'A2A-Version';

export type TA2aVersion = typeof A2A_V1_VERSION | typeof A2A_LEGACY_VERSION;

/**
 * The version a request asks for: none (or blank) is 0.3, as the 1.0 specification says of a
 * client that sends no header; "1.0", "1.0.x", "0.3", "0.3.x" are ours; anything else is null
 * (VersionNotSupported).
 */
export function negotiateVersion(header: string | null | undefined): TA2aVersion | null {
  const v = header?.trim();
  if (!v) return A2A_LEGACY_VERSION;
  const m = /^(\d+)\.(\d+)(?:\.\d+)?$/.exec(v);
  if (!m) return null;
  if (m[1] === '1' && m[2] === '0') return A2A_V1_VERSION;
  if (m[1] === '0' && m[2] === '3') return A2A_LEGACY_VERSION;
  return null;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

// ---- Parts, messages ----

/** A 0.3 part as lib/a2a/service/tasks.ts reads and writes it. */
export type TLegacyPart = { kind?: string; text?: string; data?: unknown; file?: Record<string, unknown>; metadata?: Record<string, unknown> };
/** A 1.0 part: exactly one of text, data, url, raw; no `kind`. */
export type TV1Part = { text?: string; data?: unknown; url?: string; raw?: string; mediaType?: string; filename?: string; metadata?: Record<string, unknown> };

/** A 1.0 part read as the 0.3 part the task service understands (a data part stays a data part). */
export function partFromV1(part: Record<string, unknown>): TLegacyPart {
  const metadata = isPlainObject(part.metadata) ? { metadata: part.metadata } : {};
  if (typeof part.text === 'string') return { kind: 'text', text: part.text, ...metadata };
  if (part.data !== undefined && part.data !== null) return { kind: 'data', data: part.data, ...metadata };
  if (typeof part.url === 'string') return { kind: 'file', file: { uri: part.url, ...(typeof part.mediaType === 'string' ? { mimeType: part.mediaType } : {}) }, ...metadata };
  if (typeof part.raw === 'string') return { kind: 'file', file: { bytes: part.raw }, ...metadata };
  return { ...metadata };
}

/** A 0.3 part as 1.0 writes it. */
export function partToV1(part: TLegacyPart): TV1Part {
  const metadata = part.metadata ? { metadata: part.metadata } : {};
  if (part.kind === 'text') return { text: part.text ?? '', ...metadata };
  if (part.kind === 'data') return { data: part.data, ...metadata };
  const file = part.file ?? {};
  const extra = { ...(typeof file.mimeType === 'string' ? { mediaType: file.mimeType } : {}), ...(typeof file.name === 'string' ? { filename: file.name } : {}) };
  if (typeof file.uri === 'string') return { url: file.uri, ...extra, ...metadata };
  return { raw: typeof file.bytes === 'string' ? file.bytes : '', ...extra, ...metadata };
}

const ROLE_TO_V1: Record<string, string> = { user: 'ROLE_USER', agent: 'ROLE_AGENT' };
const ROLE_FROM_V1: Record<string, string> = { ROLE_USER: 'user', ROLE_AGENT: 'agent' };

export type TLegacyMessage = {
  kind?: 'message';
  messageId?: string;
  role?: string;
  parts?: TLegacyPart[];
  contextId?: string;
  taskId?: string;
  metadata?: Record<string, unknown>;
};
export type TV1Message = { messageId: string; role: string; parts: TV1Part[]; contextId?: string; taskId?: string; metadata?: Record<string, unknown> };

/** A 1.0 message (SendMessage's `message`) as the 0.3 message the task service reads. */
export function messageFromV1(message: Record<string, unknown>): TLegacyMessage {
  const parts = Array.isArray(message.parts) ? message.parts.filter(isPlainObject).map(partFromV1) : [];
  const role = typeof message.role === 'string' ? (ROLE_FROM_V1[message.role] ?? message.role) : undefined;
  return {
    kind: 'message',
    ...(typeof message.messageId === 'string' ? { messageId: message.messageId } : {}),
    ...(role ? { role } : {}),
    parts,
    ...(typeof message.contextId === 'string' && message.contextId ? { contextId: message.contextId } : {}),
    ...(typeof message.taskId === 'string' && message.taskId ? { taskId: message.taskId } : {}),
    ...(isPlainObject(message.metadata) ? { metadata: message.metadata } : {}),
  };
}

/** A 0.3 message as 1.0 writes it. */
export function messageToV1(message: TLegacyMessage): TV1Message {
  return {
    messageId: message.messageId ?? '',
    role: ROLE_TO_V1[message.role ?? 'agent'] ?? 'ROLE_AGENT',
    parts: (message.parts ?? []).map(partToV1),
    ...(message.contextId ? { contextId: message.contextId } : {}),
    ...(message.taskId ? { taskId: message.taskId } : {}),
    ...(message.metadata ? { metadata: message.metadata } : {}),
  };
}

// ---- Tasks ----

/** 0.3's task states, and 1.0's enum names for them. */
const STATE_TO_V1: Record<string, string> = {
  submitted: 'TASK_STATE_SUBMITTED',
  working: 'TASK_STATE_WORKING',
  completed: 'TASK_STATE_COMPLETED',
  failed: 'TASK_STATE_FAILED',
  canceled: 'TASK_STATE_CANCELED',
  'input-required': 'TASK_STATE_INPUT_REQUIRED',
  rejected: 'TASK_STATE_REJECTED',
  'auth-required': 'TASK_STATE_AUTH_REQUIRED',
};
/** The 1.0 states a ListTasks filter may name (the enum's, by name or number, without UNSPECIFIED). */
export const V1_TASK_STATES = Object.values(STATE_TO_V1);
const STATE_NUMBERS = ['TASK_STATE_UNSPECIFIED', ...V1_TASK_STATES];

export function stateToV1(state: string): string {
  return STATE_TO_V1[state] ?? 'TASK_STATE_UNSPECIFIED';
}
/** A 1.0 state (its name, or its enum number) as the 0.3 state it is; null for none or an unknown one. */
export function stateFromV1(state: unknown): string | null {
  const name = typeof state === 'number' ? STATE_NUMBERS[state] : state;
  const hit = Object.entries(STATE_TO_V1).find(([, v]) => v === name);
  return hit ? hit[0] : null;
}

/** A task as lib/a2a/service/tasks.ts answers it (0.3). */
export type TLegacyTask = {
  kind?: 'task';
  id: string;
  contextId: string;
  status: { state: string; timestamp?: string; message?: TLegacyMessage };
  artifacts?: { artifactId: string; name?: string; parts: TLegacyPart[]; metadata?: Record<string, unknown> }[];
  metadata?: Record<string, unknown>;
};
export type TV1Task = {
  id: string;
  contextId: string;
  status: { state: string; timestamp?: string; message?: TV1Message };
  artifacts?: { artifactId: string; name?: string; parts: TV1Part[]; metadata?: Record<string, unknown> }[];
  metadata?: Record<string, unknown>;
};

/** A 0.3 task as 1.0 writes it; `includeArtifacts: false` leaves the artifacts out (ListTasks' default). */
export function taskToV1(task: TLegacyTask, opts: { includeArtifacts?: boolean } = {}): TV1Task {
  const artifacts = opts.includeArtifacts === false ? [] : (task.artifacts ?? []);
  return {
    id: task.id,
    contextId: task.contextId,
    status: {
      state: stateToV1(task.status.state),
      ...(task.status.timestamp ? { timestamp: task.status.timestamp } : {}),
      ...(task.status.message ? { message: messageToV1(task.status.message) } : {}),
    },
    ...(artifacts.length
      ? {
          artifacts: artifacts.map((a) => ({
            artifactId: a.artifactId,
            ...(a.name ? { name: a.name } : {}),
            parts: a.parts.map(partToV1),
            ...(a.metadata ? { metadata: a.metadata } : {}),
          })),
        }
      : {}),
    ...(task.metadata ? { metadata: task.metadata } : {}),
  };
}

/** SendMessage's result: the task the message made, or the agent's message. */
export function sendMessageResult(answer: TLegacyTask | TLegacyMessage): { task: TV1Task } | { message: TV1Message } {
  return isTask(answer) ? { task: taskToV1(answer) } : { message: messageToV1(answer as TLegacyMessage) };
}
/** The same as one StreamResponse (SendStreamingMessage's, SubscribeToTask's, a push delivery's body). */
export const streamResponseOf = sendMessageResult;

/** A status update of a task as one StreamResponse (a push delivery of an order's update). */
export function statusUpdateOf(task: TV1Task, metadata: Record<string, unknown>): { statusUpdate: Record<string, unknown> } {
  return { statusUpdate: { taskId: task.id, contextId: task.contextId, status: task.status, metadata } };
}

function isTask(v: unknown): v is TLegacyTask {
  return isPlainObject(v) && (v.kind === 'task' || (typeof v.id === 'string' && isPlainObject(v.status)));
}

// ---- Push notification configs ----

export type TV1PushConfig = { id: string; taskId: string; url: string; token?: string; authentication?: { scheme: string; credentials?: string } };

// ---- ListTasks paging ----

/** A ListTasks page token: where the previous page ended (newest first: created, then id). */
export function encodePageToken(at: { createdAt: Date; id: string }): string {
  return Buffer.from(JSON.stringify([at.createdAt.toISOString(), at.id]), 'utf8').toString('base64url');
}
/** The position a page token names, or null for one that is not ours. */
export function decodePageToken(token: string): { createdAt: Date; id: string } | null {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (!Array.isArray(parsed) || parsed.length !== 2 || typeof parsed[0] !== 'string' || typeof parsed[1] !== 'string') return null;
    const createdAt = new Date(parsed[0]);
    return Number.isNaN(createdAt.getTime()) ? null : { createdAt, id: parsed[1] };
  } catch {
    return null;
  }
}
