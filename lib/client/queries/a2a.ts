/**
 * A2A in the browser, for the developer page: the method table (GET /api/a2a/methods), the agent
 * card, the signed-in agent's own registry entry, and a JSON-RPC call to POST /api/a2a with the
 * session cookie (the endpoint accepts it from our own origin). The call is not a typed endpoint:
 * JSON-RPC answers its errors with HTTP 200, so the console shows the raw exchange instead of
 * throwing ApiErrors. I/O: the typed client and that one fetch; the rest is pure.
 */
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/client/api';
import { a2aAgentCard, a2aMethods } from '@/lib/contracts/a2a';
import type { TEndpointResponse } from '@/lib/contracts/endpoint';
import { getRegistryQueryOptions } from './registry';

export type TA2aMethodList = TEndpointResponse<typeof a2aMethods>;
export type TA2aMethod = TA2aMethodList['methods'][number];
export type TA2aGroup = TA2aMethod['group'];
export type TA2aProtocolMethod = TA2aMethodList['protocolMethods'][number];
export type TAgentCard = TEndpointResponse<typeof a2aAgentCard>;

export const a2aKeys = {
  all: ['a2a'] as const,
  methods: () => [...a2aKeys.all, 'methods'] as const,
  card: () => [...a2aKeys.all, 'agent-card'] as const,
};

// The table changes only with a deploy: no refetch while the page is open.
export function getA2aMethodsQueryOptions() {
  return queryOptions({ queryKey: a2aKeys.methods(), queryFn: () => api(a2aMethods), staleTime: Infinity });
}
export function useA2aMethods() {
  return useQuery(getA2aMethodsQueryOptions());
}

export function getAgentCardQueryOptions() {
  return queryOptions({ queryKey: a2aKeys.card(), queryFn: () => api(a2aAgentCard), staleTime: Infinity });
}
export function useAgentCard() {
  return useQuery(getAgentCardQueryOptions());
}

/**
 * The signed-in account's own agent entry: the registry's agents matching its username, narrowed
 * to the entry whose id is the account's (the search also matches display names); null when the
 * account is not an agent. Shares the registry's cache.
 */
export function useOwnAgentEntry(user: { id: string; username: string } | undefined) {
  return useQuery({
    ...getRegistryQueryOptions({ type: 'agent', search: user?.username ?? '', page: 1 }),
    enabled: !!user,
    select: (page) => page.entries.find((e) => e.id === user?.id) ?? null,
  });
}

// ---------------------------------------------------------------------------------------------
// The groups, in the order the page lists them

export const A2A_GROUPS: readonly { value: TA2aGroup; label: string; description: string }[] = [
  { value: 'discovery', label: 'Discovery', description: 'Find agents in the registry and read their profiles.' },
  { value: 'markets', label: 'Markets', description: 'Prices, volume and liquidity of prediction markets, and how to follow them live.' },
  { value: 'portfolio', label: 'Portfolio', description: 'Balances, positions and wallets.' },
  { value: 'trading', label: 'Trading', description: 'Questions and tickers, buying and selling shares, opening and closing perp positions, each with a preview.' },
  { value: 'orders', label: 'Orders', description: 'Limit orders on questions with previews, the order book, your orders and their cancels, perp stops and take-profits.' },
  { value: 'payments', label: 'Payments', description: 'Pay players and agents for services, through the ledger.' },
  { value: 'moderation', label: 'Moderation', description: 'Block, mute and report, on the same state as the site’s own settings.' },
];

/** The methods by group, in A2A_GROUPS order, groups without methods left out. Pure. */
export function groupMethods(methods: readonly TA2aMethod[]) {
  return A2A_GROUPS.map((g) => ({ ...g, methods: methods.filter((m) => m.group === g.value) })).filter((g) => g.methods.length > 0);
}

// ---------------------------------------------------------------------------------------------
// Params from JSON Schema (the subset z.toJSONSchema writes: type, enum, anyOf, items, properties)

type TSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: TSchema[];
  oneOf?: TSchema[];
  items?: TSchema;
  properties?: Record<string, TSchema>;
  required?: string[];
  additionalProperties?: boolean | TSchema;
  description?: string;
  default?: unknown;
  format?: string;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
};

const asSchema = (v: unknown): TSchema => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as TSchema) : {});

/** A schema's type as a reader writes it: `string`, `integer`, `"spam" | "other"`, `string[]`, `number | string`. Pure. */
export function describeSchemaType(raw: unknown): string {
  const s = asSchema(raw);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (s.const !== undefined) return JSON.stringify(s.const);
  const union = s.anyOf ?? s.oneOf;
  if (union) return [...new Set(union.map(describeSchemaType))].join(' | ');
  if (Array.isArray(s.type)) return s.type.join(' | ');
  if (s.type === 'array') return `${s.items ? describeSchemaType(s.items) : 'unknown'}[]`;
  if (s.type === 'object' && !s.properties && typeof s.additionalProperties === 'object') return `Record<string, ${describeSchemaType(s.additionalProperties)}>`;
  return s.type ?? 'any';
}

/** The rules besides the type, in words: lengths, bounds, format, default. Pure. */
const describeRules = (s: TSchema): string[] => {
  const rules: string[] = [];
  if (s.enum) rules.push(`one of: ${s.enum.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')}`);
  if (s.minLength !== undefined && s.maxLength !== undefined) rules.push(`${s.minLength}–${s.maxLength} chars`);
  else if (s.maxLength !== undefined) rules.push(`≤ ${s.maxLength} chars`);
  else if (s.minLength !== undefined) rules.push(`≥ ${s.minLength} chars`);
  if (s.exclusiveMinimum !== undefined) rules.push(`> ${s.exclusiveMinimum}`);
  else if (s.minimum !== undefined) rules.push(`≥ ${s.minimum}`);
  // JavaScript's largest safe integer is "no bound" in practice.
  if (s.maximum !== undefined && s.maximum < Number.MAX_SAFE_INTEGER) rules.push(`≤ ${s.maximum}`);
  if (s.format) rules.push(s.format);
  if (s.default !== undefined) rules.push(`default ${JSON.stringify(s.default)}`);
  return rules;
};

export type TParamField = { name: string; type: string; isRequired: boolean; description: string | null; rules: string[]; children: TParamField[] };

/** The params' fields, required first (then as declared), nested objects as children. Pure. */
export function listParamFields(raw: unknown): TParamField[] {
  const s = asSchema(raw);
  const required = new Set(s.required ?? []);
  const fields = Object.entries(s.properties ?? {}).map(([name, prop]): TParamField => {
    const p = asSchema(prop);
    const rules = describeRules(p);
    // A union's members carry their own bounds (an amount as a number or a decimal string).
    for (const member of p.anyOf ?? []) for (const r of describeRules(asSchema(member))) if (!rules.includes(r)) rules.push(r);
    return {
      name,
      // An enum's values are listed in its rules, where long lists have room.
      type: p.properties ? 'object' : p.enum && typeof p.type === 'string' ? p.type : describeSchemaType(p),
      isRequired: required.has(name),
      description: p.description ?? null,
      rules,
      children: p.properties ? listParamFields(p) : [],
    };
  });
  return [...fields.filter((f) => f.isRequired), ...fields.filter((f) => !f.isRequired)];
}

/** A value that passes the schema's type and bounds, for an example: placeholders name what goes there. Pure. */
export function exampleValue(raw: unknown, name: string): unknown {
  const s = asSchema(raw);
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  const union = s.anyOf ?? s.oneOf;
  if (union?.length) return exampleValue(union[0], name);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string': {
      if (s.format === 'uri') return 'https://example.com';
      const text = `<${name}>`;
      // A text with a minimum length (a report's reason) gets a sentence that meets it.
      return s.minLength !== undefined && text.length < s.minLength ? `Example ${name} text`.padEnd(s.minLength, '.') : text;
    }
    case 'integer':
    case 'number':
      if (s.exclusiveMinimum !== undefined) return s.exclusiveMinimum + 1;
      return s.minimum ?? 1;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return exampleParams(s);
    default:
      return null;
  }
}

/** An example params object: every required field with an example value. Pure. */
export function exampleParams(raw: unknown): Record<string, unknown> {
  const s = asSchema(raw);
  return Object.fromEntries((s.required ?? []).map((name) => [name, exampleValue(s.properties?.[name], name)]));
}

/**
 * Example params of the protocol methods (the API lists them without a schema): message/send asks
 * for a method in a data part; tasks/get and tasks/cancel take a task's id.
 */
export const PROTOCOL_EXAMPLES: Record<string, Record<string, unknown>> = {
  'message/send': {
    message: { kind: 'message', role: 'user', messageId: 'msg-1', parts: [{ kind: 'data', data: { method: 'a2a.getBalance', params: {} } }] },
  },
  'tasks/get': { id: '<taskId>' },
  'tasks/cancel': { id: '<taskId>' },
};

// ---------------------------------------------------------------------------------------------
// A JSON-RPC call with the session cookie

export type TRpcRequest = { jsonrpc: '2.0'; id: number; method: string; params?: unknown };

/**
 * What the console shows of one call: the request sent, the HTTP status, the body as received
 * (null when none, or not JSON) and the caller's rate-limit state after it (X-RateLimit-*).
 */
export type TRpcExchange = { request: TRpcRequest; status: number; body: unknown; durationMs: number; rateLimit: { limit: number; remaining: number } | null };

const readRateLimit = (headers: Headers) => {
  const limit = Number(headers.get('x-ratelimit-limit'));
  const remaining = Number(headers.get('x-ratelimit-remaining'));
  return headers.has('x-ratelimit-limit') && Number.isFinite(limit) && Number.isFinite(remaining) ? { limit, remaining } : null;
};

/** The params text of the console: empty means no params; otherwise a JSON object or array. Pure. */
export function parseParamsText(text: string): { ok: true; params: unknown } | { ok: false; message: string } {
  if (text.trim() === '') return { ok: true, params: undefined };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, message: `Not valid JSON: ${e instanceof Error ? e.message : 'parse error'}` };
  }
  if (typeof value !== 'object' || value === null) return { ok: false, message: 'Params must be a JSON object (or an array).' };
  return { ok: true, params: value };
}

let nextId = 1;

/** POST /api/a2a with one call, the session cookie and our origin: answers whatever came back (JSON-RPC errors included). */
export async function sendRpc({ method, params }: { method: string; params: unknown }): Promise<TRpcExchange> {
  const request: TRpcRequest = { jsonrpc: '2.0', id: nextId++, method, ...(params === undefined ? {} : { params }) };
  const started = performance.now();
  let res: Response;
  try {
    res = await fetch('/api/a2a', { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) });
  } catch {
    return { request, status: 0, body: null, durationMs: Math.round(performance.now() - started), rateLimit: null };
  }
  const body: unknown = res.status === 204 ? null : await res.json().catch(() => null);
  return { request, status: res.status, body, durationMs: Math.round(performance.now() - started), rateLimit: readRateLimit(res.headers) };
}

/** The console's call: a mutation (a write method changes state), its last exchange as `data`. */
export function useSendRpc() {
  return useMutation({ mutationFn: sendRpc });
}

/** The meanings of the JSON-RPC codes the endpoint answers (lib/a2a/README.md). */
export const RPC_ERROR_NAMES: Record<number, string> = {
  [-32700]: 'Parse error',
  [-32600]: 'Invalid request',
  [-32601]: 'Method not found',
  [-32602]: 'Invalid params',
  [-32603]: 'Internal error',
  [-32000]: 'Request failed',
  [-32001]: 'Task not found',
  [-32002]: 'Task not cancelable',
  [-32003]: 'Push notifications not supported',
  [-32004]: 'Unsupported operation',
  [-32005]: 'Content type not supported',
  [-32006]: 'Invalid agent response',
  [-32007]: 'Authenticated extended card not configured',
};

/**
 * What an exchange came to: a result, a JSON-RPC error (with the REST code in `data.code` when
 * the method failed in the domain), a refusal before any JSON-RPC (401, 413 … in the REST
 * envelope), or no answer at all. Pure.
 */
export type TRpcOutcome =
  | { kind: 'result'; result: unknown }
  | { kind: 'rpc-error'; code: number; name: string; message: string; dataCode: string | null }
  | { kind: 'http-error'; status: number; code: string | null; message: string }
  | { kind: 'network' };

export function readRpcOutcome({ status, body }: Pick<TRpcExchange, 'status' | 'body'>): TRpcOutcome {
  if (status === 0) return { kind: 'network' };
  const b = asRecord(body);
  if (status === 200 && b?.jsonrpc === '2.0') {
    if (Object.hasOwn(b, 'result')) return { kind: 'result', result: b.result };
    const error = asRecord(b.error);
    if (error && typeof error.code === 'number') {
      const data = asRecord(error.data);
      return {
        kind: 'rpc-error',
        code: error.code,
        name: RPC_ERROR_NAMES[error.code] ?? 'Error',
        message: typeof error.message === 'string' ? error.message : '',
        dataCode: typeof data?.code === 'string' ? data.code : null,
      };
    }
  }
  const error = asRecord(b?.error);
  return {
    kind: 'http-error',
    status,
    code: typeof error?.code === 'string' ? error.code : null,
    message: typeof error?.message === 'string' ? error.message : `HTTP ${status}`,
  };
}

const asRecord = (v: unknown): Record<string, unknown> | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null);
