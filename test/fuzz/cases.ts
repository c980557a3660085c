/**
 * The fuzz cases: from an operation of the OpenAPI document to a fast-check arbitrary of hostile
 * requests, each one invalid by construction. Pure: no I/O, no database, no route code; the harness
 * (harness.ts) turns a case into a real request for a real caller.
 *
 * Why "invalid by construction": the suite asserts that every case is refused with a 4xx and
 * writes nothing, so a case must never be a request the API is entitled to accept. Two kinds:
 *  - mutations of the operation's own schemas (a field removed, of the wrong type, past its
 *    bounds, an enum value in the wrong case...). The document decides: each is compiled with ajv
 *    and a case is kept only when the document rejects it (`needs`), which also tests that the
 *    server is at least as strict as what it publishes;
 *  - requests that are invalid whatever the schema says (the rules of lib/http/limits.ts and the
 *    route wrapper): invalid JSON or UTF-8, a non-object body, nesting past 32 levels, a body over
 *    the route's limit, a media type the route does not read, control characters and lone
 *    surrogates in any string, more than 50 query parameters, a URL over 8 KiB, a hostile
 *    Authorization header, a body sent to an operation that takes none.
 * Large values (8 KiB headers, 64 KiB bodies, deep nesting) are descriptors the harness expands,
 * so a counterexample prints in a few lines.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormatsImport from 'ajv-formats';
import fc from 'fast-check';

// ajv-formats is CommonJS with a default export; under ESM interop it may arrive wrapped once.
const addFormats = ((addFormatsImport as unknown as { default?: unknown }).default ?? addFormatsImport) as (a: unknown) => void;

export type TJsonSchema = Record<string, any>;
type TDoc = { paths: Record<string, Record<string, any>>; components?: Record<string, any> };

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export type TParam = { name: string; schema: TJsonSchema; required: boolean };

/** One operation of the document, reduced to what the generators need. */
export type TOperation = {
  method: string;
  path: string;
  operationId: string;
  pathParams: TParam[];
  queryParams: TParam[];
  /** Header parameters the document declares (the Idempotency-Key of money POSTs). */
  headerParams: TParam[];
  /** The request body's media type and schema, when the operation declares one. */
  body?: { mediaType: string; schema: TJsonSchema };
  /** Largest body the route accepts, in bytes (not in the document: the harness passes it in). */
  bodyLimit: number;
  /** Cron operations refuse everything without the scheduler's secret, which no case carries. */
  cron: boolean;
  /** A JSON-RPC transport (`x-jsonrpc`): a body it can read is refused in the protocol, with HTTP 200. */
  jsonRpc: boolean;
};

/** Every path and method of the document, in document order. */
export const operationsOf = (doc: TDoc, info: (operationId: string) => { bodyLimit: number; cron: boolean }): TOperation[] => {
  const out: TOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const m of METHODS) {
      const op = item[m];
      if (!op) continue;
      const params = ((op.parameters ?? []) as { name: string; in: string; required?: boolean; schema?: TJsonSchema }[]).map((p) => ({
        where: p.in,
        name: p.name,
        schema: inlineRefs(p.schema ?? {}, doc),
        required: p.in === 'path' || !!p.required,
      }));
      const content = op.requestBody?.content as Record<string, { schema?: TJsonSchema }> | undefined;
      const mediaType = content ? Object.keys(content)[0] : undefined;
      out.push({
        method: m.toUpperCase(),
        path,
        operationId: op.operationId,
        pathParams: params.filter((p) => p.where === 'path'),
        queryParams: params.filter((p) => p.where === 'query'),
        headerParams: params.filter((p) => p.where === 'header'),
        body: mediaType ? { mediaType, schema: inlineRefs(content![mediaType]!.schema ?? {}, doc) } : undefined,
        jsonRpc: op['x-jsonrpc'] === true,
        ...info(op.operationId),
      });
    }
  }
  return out;
};

/** Replaces `#/components/...` references by their targets so a schema compiles on its own. */
const inlineRefs = (schema: TJsonSchema, doc: TDoc, seen = 0): TJsonSchema => {
  if (seen > 20) return {};
  if (Array.isArray(schema)) return schema.map((s) => inlineRefs(s, doc, seen)) as unknown as TJsonSchema;
  if (!schema || typeof schema !== 'object') return schema;
  if (typeof schema.$ref === 'string' && schema.$ref.startsWith('#/components/')) {
    const target = schema.$ref
      .slice(2)
      .split('/')
      .reduce<any>((o, k) => o?.[k], doc);
    return inlineRefs(target ?? {}, doc, seen + 1);
  }
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, v && typeof v === 'object' ? inlineRefs(v, doc, seen) : v]));
};

// ---------------------------------------------------------------------------------------------
// Validators: the document's verdict on a body, a query, a path parameter.

export type TValidators = {
  /** Whether the body (after the server's "no body means {}") is valid for the document. */
  body: (value: unknown) => boolean;
  /** Whether a query (string values) is valid, coercing strings as the document's types say. */
  query: (query: Record<string, string>) => boolean;
  path: (name: string, value: string) => boolean;
};

/** JSON has no NaN or Infinity; ajv's `number` accepts them, so a value holding one is invalid here. */
const hasNonFinite = (v: unknown): boolean => {
  if (typeof v === 'number') return !Number.isFinite(v);
  if (Array.isArray(v)) return v.some(hasNonFinite);
  if (v && typeof v === 'object') return Object.values(v).some(hasNonFinite);
  return false;
};

const newAjv = (coerce: boolean) => {
  const ajv = new Ajv2020({ strict: false, allErrors: false, coerceTypes: coerce, validateFormats: true });
  addFormats(ajv);
  return ajv;
};
const strictAjv = newAjv(false);
const coercingAjv = newAjv(true);

export const validatorsFor = (op: TOperation): TValidators => {
  const bodyCheck = op.body ? strictAjv.compile(op.body.schema) : undefined;
  const querySchema = {
    type: 'object',
    properties: Object.fromEntries(op.queryParams.map((p) => [p.name, p.schema])),
    required: op.queryParams.filter((p) => p.required).map((p) => p.name),
  };
  const queryCheck = coercingAjv.compile(querySchema);
  const pathChecks = new Map(op.pathParams.map((p) => [p.name, strictAjv.compile(p.schema)]));
  return {
    body: (value) => !!bodyCheck && !hasNonFinite(value) && (bodyCheck(value) as boolean),
    query: (query) => {
      const copy: Record<string, unknown> = { ...query };
      // ajv coerces in place; a coerced NaN or Infinity is no number a client meant.
      return (queryCheck(copy) as boolean) && !hasNonFinite(copy);
    },
    path: (name, value) => (pathChecks.get(name)?.(value) as boolean | undefined) ?? true,
  };
};

// ---------------------------------------------------------------------------------------------
// The case: what to send, described compactly.

/**
 * A path parameter: a real id the harness picks for the caller, a fresh unknown one, a literal, or
 * `encoded`: raw text put in the URL as it is (a percent-encoding that does not decode).
 */
export type TPathValue = { kind: 'real' } | { kind: 'unknown' } | { kind: 'literal'; value: string } | { kind: 'long'; length: number } | { kind: 'encoded'; raw: string };

export type TAuth =
  | { kind: 'caller' }
  | { kind: 'header'; value: string }
  | { kind: 'junkBearer'; length: number }
  | { kind: 'wrongSecret' }
  | { kind: 'expired' }
  | { kind: 'noneAlg' }
  | { kind: 'noSubject' };

export type TBody =
  | { kind: 'none'; contentType?: string }
  | { kind: 'json'; value: unknown; contentType: string | null }
  | { kind: 'text'; text: string; contentType: string | null }
  | { kind: 'bytes'; bytes: number[]; contentType: string | null }
  | { kind: 'rawNumber'; base: Record<string, unknown>; field: string; literal: string; contentType: string | null }
  | { kind: 'deep'; base: Record<string, unknown> | null; depth: number; style: 'array' | 'object'; contentType: string | null }
  | { kind: 'oversize'; size: number; streamed: boolean; contentType: string | null }
  | { kind: 'form'; fields: [string, string][] }
  | { kind: 'rawForm'; text: string; contentType: string };

export type TNeeds = 'invalidBody' | 'validBody' | 'invalidQuery' | 'invalidPath' | null;

export type TCase = {
  family: string;
  params: Record<string, TPathValue>;
  query: [string, string][];
  /** Query text appended to the URL as it is, not encoded (a percent-encoding that does not decode). */
  rawQuery?: string;
  /** Extra query parameters p0..pN (count), or one `pad` parameter of this length. */
  manyParams?: number;
  pad?: number;
  auth: TAuth;
  body: TBody;
  headers: Record<string, string>;
  /** A Content-Length header that is not the body's length (malformed, or over the limit). */
  contentLength?: string;
  /** Statuses the case may answer; '4xx' when any client error is right (an unknown id). */
  expect: number[] | '4xx';
  /** What the document must say about the case for it to be kept (checked with ajv). */
  needs: TNeeds;
};

// ---------------------------------------------------------------------------------------------
// Schema helpers.

const deref = (s: TJsonSchema, root: TJsonSchema): TJsonSchema => {
  let cur = s;
  for (let i = 0; i < 10 && cur && typeof cur.$ref === 'string'; i++) {
    const ref = cur.$ref as string;
    if (!ref.startsWith('#/')) return {};
    cur = ref
      .slice(2)
      .split('/')
      .reduce<any>((o, k) => o?.[k], root) ?? {};
  }
  return cur ?? {};
};

const branchesOf = (s: TJsonSchema): TJsonSchema[] | undefined => s.anyOf ?? s.oneOf;

/** The JSON types a schema admits (integer counted as its own type). */
export const typesOf = (s0: TJsonSchema, root: TJsonSchema): Set<string> => {
  const s = deref(s0, root);
  const out = new Set<string>();
  if (Array.isArray(s.enum)) {
    for (const v of s.enum) out.add(v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
    return out;
  }
  if ('const' in s) return new Set([s.const === null ? 'null' : typeof s.const]);
  const branches = branchesOf(s);
  if (branches) {
    for (const b of branches) for (const t of typesOf(b, root)) out.add(t);
    return out;
  }
  const t = Array.isArray(s.type) ? s.type : s.type ? [s.type] : s.properties ? ['object'] : s.items ? ['array'] : [];
  if (t.length === 0) out.add('any');
  for (const x of t) out.add(x);
  return out;
};

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
/** A plain ASCII string of `n` letters, so "too long" is the only thing wrong with it. */
export const letters = (n: number) => LETTERS.repeat(Math.ceil(n / LETTERS.length)).slice(0, Math.max(0, n));
const safeUnit = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-'.split(''));

const stringArb = (s: TJsonSchema): fc.Arbitrary<string> => {
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? min + 24;
  if (s.format === 'date-time') {
    // A future instant: schedules (a market's resolution date) are refused in the past.
    return fc.integer({ min: 2, max: 3000 }).map((d) => new Date(Date.UTC(2030, 0, 1) + d * 86_400_000).toISOString());
  }
  if (s.format === 'email') return fc.constantFrom('player@example.com', 'a.b@example.org');
  if (s.format === 'uuid') return fc.uuid();
  if (s.format === 'uri' || s.format === 'url') return fc.constantFrom('https://example.com/a.png', 'https://example.org/x');
  if (typeof s.pattern === 'string') {
    let re: RegExp | undefined;
    try {
      re = new RegExp(s.pattern);
    } catch {
      re = undefined;
    }
    // Only the document's own bounds filter: a pattern longer than the default span (a 42-character
    // address) would otherwise never pass, and the generator would spin forever.
    if (re) return fc.stringMatching(re).filter((v) => v.length >= min && (s.maxLength === undefined || v.length <= s.maxLength));
  }
  return fc.string({ unit: safeUnit, minLength: min, maxLength: Math.max(min, Math.min(max, min + 24)) });
};

const numberBounds = (s: TJsonSchema, integer: boolean) => {
  const step = integer ? 1 : 1e-6;
  let min = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + step : undefined;
  let max = typeof s.maximum === 'number' ? s.maximum : typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum - step : undefined;
  if (min === undefined && max === undefined) [min, max] = [1, 100];
  else if (min === undefined) min = Math.min(0, max!);
  else if (max === undefined) max = min + 1000;
  return { min: min!, max: Math.min(max!, min! + 1e6) };
};

/** Values the schema accepts (used as the untouched rest of a mutated body). */
export const validArb = (s0: TJsonSchema, root: TJsonSchema, depth = 0): fc.Arbitrary<unknown> => {
  const s = deref(s0, root);
  if (Array.isArray(s.enum) && s.enum.length > 0) return fc.constantFrom(...(s.enum as unknown[]));
  if ('const' in s) return fc.constant(s.const);
  const branches = branchesOf(s);
  if (branches && branches.length > 0) return fc.oneof(...branches.map((b) => validArb(b, root, depth)));
  const types = [...typesOf(s, root)].filter((t) => t !== 'any');
  if (types.length > 1) return fc.oneof(...types.map((t) => validArb({ ...s, type: t }, root, depth)));
  switch (types[0]) {
    case 'string':
      return stringArb(s);
    case 'integer': {
      const { min, max } = numberBounds(s, true);
      return fc.integer({ min: Math.ceil(Math.max(min, Number.MIN_SAFE_INTEGER)), max: Math.floor(Math.min(max, Number.MAX_SAFE_INTEGER)) });
    }
    case 'number': {
      const { min, max } = numberBounds(s, false);
      return fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n));
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minItems = s.minItems ?? 0;
      const maxItems = Math.min(s.maxItems ?? minItems + 3, minItems + 3);
      return depth > 4 ? fc.constant([]) : fc.array(validArb(s.items ?? {}, root, depth + 1), { minLength: minItems, maxLength: maxItems });
    }
    case 'object':
      return objectArb(s, root, depth);
    default:
      return fc.constantFrom<unknown>('x', 1, true);
  }
};

const objectArb = (s: TJsonSchema, root: TJsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> => {
  const props = (s.properties ?? {}) as Record<string, TJsonSchema>;
  const required = new Set<string>(s.required ?? []);
  if (depth > 4) return fc.constant({});
  const model = Object.fromEntries(Object.entries(props).map(([k, p]) => [k, validArb(p, root, depth + 1)]));
  return fc.record(model, { requiredKeys: Object.keys(props).filter((k) => required.has(k)) }) as fc.Arbitrary<Record<string, unknown>>;
};

// ---------------------------------------------------------------------------------------------
// Hostile values.

/** Characters no text field may hold: C0 controls other than tab, LF, CR; lone surrogate halves. */
export const BAD_CHARS = [
  ...Array.from({ length: 9 }, (_, i) => String.fromCharCode(i)),
  '\u000b',
  '\u000c',
  ...Array.from({ length: 18 }, (_, i) => String.fromCharCode(0x0e + i)),
];
const LONE_SURROGATES = ['\ud800', '\udc00', '\udbff', '\udfff', '\udc00\ud800'];
const badCharArb = (withSurrogates: boolean) => fc.constantFrom(...BAD_CHARS, ...(withSurrogates ? LONE_SURROGATES : []));
/** A short string with one bad character at the start, middle or end. */
const badTextArb = (withSurrogates: boolean) =>
  fc
    .tuple(fc.string({ unit: safeUnit, maxLength: 6 }), badCharArb(withSurrogates), fc.string({ unit: safeUnit, maxLength: 6 }))
    .map(([a, bad, b]) => `${a}${bad}${b}`);

const HOSTILE_SCALARS: unknown[] = [
  null, true, false, 0, -1, 1, 0.5, -0.5, 1e308, -1e308, 5e-324, 2 ** 53 + 2, -(2 ** 53) - 2,
  '', ' ', '0', '-1', '1.5', '1e308', '-1e308', '1e400', 'NaN', 'Infinity', '-Infinity', '0x10', '1e3', ' 5 ', '5,0',
  'true', 'null', 'undefined', '[]', '{}', '١٢٣', '１２', '9'.repeat(40),
];
const HOSTILE_STRUCTURES: unknown[] = [[], [1], [''], [null], {}, { a: 1 }, [[]], { x: {} }, { $ne: null }, { __proto__x: 1 }];

/** Values at the edge of (and just past) the schema's own bounds. */
const boundaryValues = (s: TJsonSchema, root: TJsonSchema): unknown[] => {
  const out: unknown[] = [];
  for (const b of [s, ...(branchesOf(s) ?? []).map((x) => deref(x, root))]) {
    if (typeof b.minLength === 'number' && b.minLength > 0) out.push('', letters(b.minLength - 1));
    if (typeof b.maxLength === 'number') out.push(letters(b.maxLength + 1), letters(b.maxLength + 17));
    if (Array.isArray(b.enum)) {
      for (const v of b.enum) {
        if (typeof v !== 'string') continue;
        out.push(v.toLowerCase(), v.toUpperCase(), v[0]?.toUpperCase() + v.slice(1).toLowerCase(), ` ${v}`, `${v} `, `${v}x`, `${v}\t`);
      }
    }
    for (const [lo, hi] of [
      [b.minimum, b.maximum],
      [b.exclusiveMinimum, b.exclusiveMaximum],
    ] as const) {
      if (typeof lo === 'number') out.push(lo - 1, lo - 0.001, lo - 1e-9, String(lo - 1));
      if (typeof hi === 'number') out.push(hi + 1, hi + 0.001, hi * 2 + 1, String(hi + 1), 1e308);
    }
    if (typeof b.exclusiveMinimum === 'number') out.push(b.exclusiveMinimum);
    if (typeof b.exclusiveMaximum === 'number') out.push(b.exclusiveMaximum);
    if (b.type === 'integer') out.push(0.5, 1.5, -0.5, (b.minimum ?? 0) + 0.5);
    if (typeof b.maxItems === 'number') out.push(Array.from({ length: b.maxItems + 1 }, (_, i) => `item${i}`));
    if (typeof b.minItems === 'number' && b.minItems > 0) out.push([]);
  }
  return out.filter((v) => typeof v !== 'number' || Number.isFinite(v));
};

/** A replacement value for a field of schema `s` (ajv later keeps only those the document refuses). */
const hostileValueArb = (s0: TJsonSchema, root: TJsonSchema): fc.Arbitrary<unknown> => {
  const s = deref(s0, root);
  const boundary = boundaryValues(s, root);
  const maxLen = [s, ...(branchesOf(s) ?? [])].map((b) => deref(b, root).maxLength).find((n) => typeof n === 'number') as number | undefined;
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_SCALARS) },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_STRUCTURES) },
    { weight: boundary.length > 0 ? 4 : 0, arbitrary: boundary.length > 0 ? fc.constantFrom(...boundary) : fc.constant(null) },
    // Over-long with plain letters: invalid only through its length.
    { weight: maxLen !== undefined ? 2 : 0, arbitrary: fc.integer({ min: 1, max: 300 }).map((n) => letters((maxLen ?? 0) + n)) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
    { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
    { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
  );
};

// ---------------------------------------------------------------------------------------------
// Mutations of an object body.

type TPath = (string | number)[];
type TSlot = { path: TPath; schema: TJsonSchema; required: boolean; parentStrict: boolean };

/** Every field (and array item) of an object schema, to depth 3. */
const slotsOf = (s0: TJsonSchema, root: TJsonSchema, path: TPath = [], depth = 0): TSlot[] => {
  const s = deref(s0, root);
  if (depth > 3) return [];
  const out: TSlot[] = [];
  const objects = [s, ...(branchesOf(s) ?? []).map((b) => deref(b, root))].filter((b) => b.properties);
  for (const o of objects) {
    const required = new Set<string>(o.required ?? []);
    for (const [k, p] of Object.entries(o.properties as Record<string, TJsonSchema>)) {
      out.push({ path: [...path, k], schema: p, required: required.has(k), parentStrict: o.additionalProperties === false });
      const pd = deref(p, root);
      for (const b of [pd, ...(branchesOf(pd) ?? []).map((x) => deref(x, root))]) {
        if (b.properties) out.push(...slotsOf(b, root, [...path, k], depth + 1));
        if (b.items) out.push({ path: [...path, k, 0], schema: b.items, required: false, parentStrict: false });
      }
    }
  }
  return out;
};

const clone = <T>(v: T): T => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T));

const setAt = (base: unknown, path: TPath, value: unknown): unknown => {
  const root = clone(base) as any;
  let cur = root;
  for (let i = 0; i < path.length - 1; i++) {
    const k = path[i]!;
    if (cur[k] === null || typeof cur[k] !== 'object') cur[k] = typeof path[i + 1] === 'number' ? [] : {};
    cur = cur[k];
  }
  cur[path[path.length - 1]!] = value;
  return root;
};

const deleteAt = (base: unknown, path: TPath): unknown => {
  const root = clone(base) as any;
  let cur = root;
  for (let i = 0; i < path.length - 1; i++) {
    cur = cur?.[path[i]!];
    if (cur === null || typeof cur !== 'object') return root;
  }
  if (cur && typeof cur === 'object') delete cur[path[path.length - 1]!];
  return root;
};

const identifierArb = fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,15}$/);

/** A base object from the schema with one field removed, replaced by a hostile value, or added. */
const bodyMutationArb = (schema: TJsonSchema): fc.Arbitrary<{ value: unknown; what: string }> => {
  const base = validArb(schema, schema);
  const slots = slotsOf(schema, schema);
  const parts: fc.Arbitrary<{ value: unknown; what: string }>[] = [];
  if (slots.length > 0) {
    parts.push(
      fc
        .tuple(base, fc.constantFrom(...slots))
        .chain(([b, slot]) => hostileValueArb(slot.schema, schema).map((v) => ({ value: setAt(b, slot.path, v), what: `${slot.path.join('.')}: hostile value` }))),
    );
    const required = slots.filter((s) => s.required);
    if (required.length > 0) {
      parts.push(fc.tuple(base, fc.constantFrom(...required)).map(([b, slot]) => ({ value: deleteAt(b, slot.path), what: `${slot.path.join('.')}: missing` })));
    }
  }
  // Unknown fields are invalid only where the document says additionalProperties: false.
  if (deref(schema, schema).additionalProperties === false || slots.some((s) => s.parentStrict)) {
    parts.push(
      fc
        .tuple(base, identifierArb, fc.jsonValue({ maxDepth: 1 }))
        .map(([b, k, v]) => ({ value: b && typeof b === 'object' && !Array.isArray(b) ? { ...b, [`x_${k}`]: v } : b, what: 'unknown field' })),
    );
  }
  // The whole body of the wrong type (validated too: a schema may accept more than objects).
  parts.push(fc.constantFrom<unknown>(...HOSTILE_SCALARS, ...HOSTILE_STRUCTURES).map((v) => ({ value: v, what: 'body of the wrong type' })));
  return fc.oneof(...parts);
};

/** The body with one string (or key) holding a control character or lone surrogate. */
const badTextBodyArb = (schema: TJsonSchema | undefined, withSurrogates: boolean) => {
  const base: fc.Arbitrary<unknown> = schema ? validArb(schema, schema) : fc.constant({});
  const stringSlots = schema ? slotsOf(schema, schema).filter((s) => typeOk(s.schema, schema, 'string')) : [];
  const inKey = fc
    .tuple(base, badTextArb(withSurrogates), fc.jsonValue({ maxDepth: 1 }))
    .map(([b, key, v]) => ({ ...(b && typeof b === 'object' ? (b as object) : {}), [key]: v }));
  if (stringSlots.length === 0) return inKey;
  const inValue = fc
    .tuple(base, fc.constantFrom(...stringSlots), badTextArb(withSurrogates))
    .map(([b, slot, bad]) => setAt(b, slot.path, bad));
  return fc.oneof({ weight: 3, arbitrary: inValue }, { weight: 1, arbitrary: inKey });
};

const typeOk = (s: TJsonSchema, root: TJsonSchema, t: string) => {
  const ts = typesOf(s, root);
  return ts.has(t) || ts.has('any');
};

/** Number-accepting fields, for `1e400` (valid JSON syntax that parses to Infinity). */
const numberSlots = (schema: TJsonSchema) =>
  slotsOf(schema, schema).filter((s) => s.path.length === 1 && (typeOk(s.schema, schema, 'number') || typeOk(s.schema, schema, 'integer')));

// ---------------------------------------------------------------------------------------------
// Families that need no schema.

/** Content types a JSON route reads (the server treats them alike): vary them for free coverage. */
export const JSON_CONTENT_TYPES = ['application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/vnd.api+json'] as const;
const jsonCtArb = fc.constantFrom<string | null>(...JSON_CONTENT_TYPES);

/** What a JSON route refuses with 415: text/plain and no type at all (what a cross-site form sends) among them. */
const WRONG_JSON_CONTENT_TYPES = [
  null,
  'text/plain',
  'text/plain;charset=UTF-8',
  'application/x-www-form-urlencoded',
  'application/xml',
  'text/xml',
  'multipart/form-data; boundary=fuzz',
  'multipart/form-data',
  'text/html',
  'application/octet-stream',
  'image/png',
  'text/csv',
  'application/jsonx',
  'application/javascript',
];

const INVALID_JSON = [
  '{', '}', '{"a":}', '{"a" 1}', "{'a':1}", '{"a":1,}', '[1,2', 'NaN', 'Infinity', 'undefined', 'nul', 'tru',
  '{"a":01}', '{"a":.5}', '{"a":+1}', '{"a":1}}', '{} x', '{"a":"\\x41"}', '{"a":"\\u12"}', '"unterminated',
  '{"a":"tab\there"}', '{"a":"nl\nhere"}', '/* c */ {}', '{a:1}', '\u0000', '{"a":1}\u0000', '<xml/>', 'a=1&b=2',
];

/** Malformed UTF-8: a lone continuation byte, a truncated sequence, an encoded surrogate, an overlong form. */
const BAD_UTF8: number[][] = [[0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xc0, 0xaf], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xfe]];
const badUtf8BodyArb = fc.tuple(fc.constantFrom(...BAD_UTF8), fc.boolean()).map(([bad, inString]) => {
  const enc = (s: string) => [...new TextEncoder().encode(s)];
  return inString ? [...enc('{"content":"a'), ...bad, ...enc('b"}')] : [...enc('{"a":1}'), ...bad];
});

/** Percent-encodings that do not decode to text: invalid UTF-8, an overlong form, encoded surrogates, NUL, broken escapes. */
const UNDECODABLE = ['%FF', '%C0%AF', '%ED%A0%80', '%ED%BF%BF', '%00', '%', '%E2%82', '%G0', '%F4%90%80%80'];

const NON_OBJECT_BODIES: unknown[] = [[], [{}], [1, 2], 'text', '', 0, 1.5, -1, true, false, null];

const invalidJsonArb = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...INVALID_JSON) },
  {
    weight: 1,
    arbitrary: fc.string({ minLength: 1, maxLength: 40 }).filter((t) => {
      if (t.trim() === '') return false;
      try {
        JSON.parse(t);
        return false;
      } catch {
        return true;
      }
    }),
  },
);

/** Hostile Authorization headers: none of them may authenticate, on any operation. */
const HOSTILE_AUTH_HEADERS = [
  'Bearer garbage',
  'Bearer a.b.c',
  'Bearer eyJhbGciOiJIUzI1NiJ9.e30.AAAA',
  'Bearer ',
  'Bearer',
  'bearer  x',
  'Basic dXNlcjpwYXNzd29yZA==',
  'Digest username="x"',
  'Token abc',
  'Bearer \t',
  'Bearer null',
  'Bearer undefined',
  'Bearer x y z',
  'Bearer ../../etc/passwd',
  "Bearer ' OR 1=1 --",
  'Bearer é',
];
const hostileAuthArb: fc.Arbitrary<TAuth> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_AUTH_HEADERS).map((value) => ({ kind: 'header' as const, value })) },
  { weight: 1, arbitrary: fc.integer({ min: 8 * 1024, max: 9 * 1024 }).map((length) => ({ kind: 'junkBearer' as const, length })) },
  { weight: 1, arbitrary: fc.constantFrom<TAuth>({ kind: 'wrongSecret' }, { kind: 'expired' }, { kind: 'noneAlg' }, { kind: 'noSubject' }) },
);

/** Harmless headers a hostile client adds; none may change the outcome or make it HTML. */
const noiseHeadersArb: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({}) },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        accept: fc.constantFrom('text/html', 'text/html,application/xhtml+xml,*/*;q=0.8', 'application/xml', '*/*', 'image/*'),
        'user-agent': fc.constantFrom('() { :; }; echo pwned', 'Mozilla/5.0 <script>', 'x'.repeat(2000)),
        'x-forwarded-for': fc.constantFrom('127.0.0.1', '1.2.3.4, 5.6.7.8', 'not an ip'),
        'accept-language': fc.constantFrom('*', 'xx-XX;q=2'),
        referer: fc.constantFrom('javascript:alert(1)', 'http://evil.example/'),
      },
      { requiredKeys: [] },
    ),
  },
);

// ---------------------------------------------------------------------------------------------
// The per-operation arbitrary.

const isWrite = (op: TOperation) => op.method !== 'GET';
const takesJson = (op: TOperation) => isWrite(op) && (!op.body || op.body.mediaType !== 'multipart/form-data');

const realParams = (op: TOperation): Record<string, TPathValue> => Object.fromEntries(op.pathParams.map((p) => [p.name, { kind: 'real' } as TPathValue]));

const baseCase = (op: TOperation, family: string, over: Partial<TCase>): TCase => ({
  family,
  params: realParams(op),
  query: [],
  auth: { kind: 'caller' },
  body: { kind: 'none' },
  headers: {},
  expect: [400],
  needs: null,
  ...over,
});

/** The string form of a query value, as a client would send it. */
const queryString = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v));

const queryValuePool = (s0: TJsonSchema): fc.Arbitrary<string> => {
  const s = s0;
  const pool = [
    '', ' ', 'abc', '1.5', '-1', '0', '1e308', '-1e308', '1e400', 'NaN', 'Infinity', '-Infinity', '0x', '0x10', '1,2', '[]', '{}',
    'true', 'false', 'TRUE', 'yes', 'on', '1', '2', 'null', '١', '１', '9'.repeat(30), '+', '-', '1e', '--1', '%',
    ...boundaryValues(s, s).map(queryString),
  ];
  const maxLen = [s, ...(branchesOf(s) ?? [])].map((b) => b.maxLength).find((n) => typeof n === 'number') as number | undefined;
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...pool) },
    { weight: maxLen !== undefined ? 1 : 0, arbitrary: fc.integer({ min: 1, max: 200 }).map((n) => letters((maxLen ?? 0) + n)) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 20 }).filter((v) => !/[\u0000-\u001f]/.test(v)) },
    { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double({ noNaN: true })).map(String) },
  );
};

/** Valid values for the required query parameters, so a mutation of another one is the only fault. */
const requiredQueryArb = (op: TOperation): fc.Arbitrary<Record<string, string>> => {
  const req = op.queryParams.filter((p) => p.required);
  return fc.record(Object.fromEntries(req.map((p) => [p.name, validArb(p.schema, p.schema).map(queryString)]))) as fc.Arbitrary<Record<string, string>>;
};

type TWeighted = { weight: number; arbitrary: fc.Arbitrary<TCase> };

/**
 * Every family of invalid request that applies to `op`, weighted. Each case carries exactly one
 * fault, so its expected status follows from the order of the wrapper's checks.
 */
export const caseArb = (op: TOperation): fc.Arbitrary<TCase> => {
  const fams: TWeighted[] = [];
  const add = (weight: number, arbitrary: fc.Arbitrary<TCase>) => fams.push({ weight, arbitrary });
  const jsonBody = op.body && op.body.mediaType !== 'multipart/form-data' ? op.body.schema : undefined;
  const formBody = op.body?.mediaType === 'multipart/form-data' ? op.body.schema : undefined;
  // A body that is wrong whatever else happens, for cases whose fault lies elsewhere but that
  // reach the body if the server misses that fault (so a miss can never write).
  const harmlessBadBody: TBody = op.body && !formBody ? { kind: 'text', text: '[]', contentType: 'application/json' } : { kind: 'none' };

  // Hostile Authorization: 401 everywhere (an invalid token is refused even on public routes).
  add(3, fc.tuple(hostileAuthArb, noiseHeadersArb).map(([auth, headers]) => baseCase(op, 'auth.hostile', { auth, headers, body: harmlessBadBody, expect: [401] })));

  // URL and query bounds.
  add(1, fc.integer({ min: 51, max: 160 }).map((n) => baseCase(op, 'query.tooMany', { manyParams: n, body: harmlessBadBody, expect: [400] })));
  add(1, fc.integer({ min: 8 * 1024 + 1, max: 8 * 1024 + 2048 }).map((n) => baseCase(op, 'url.tooLong', { pad: n, body: harmlessBadBody, expect: [414] })));

  // Query values: ones the document refuses, and control characters in any parameter. Lone
  // surrogates cannot travel in a URL (percent-decoding turns them into U+FFFD), so not here.
  const qNames = op.queryParams.map((p) => p.name);
  if (op.queryParams.length > 0) {
    add(
      4,
      fc
        .tuple(requiredQueryArb(op), fc.constantFrom(...op.queryParams))
        .chain(([req, p]) =>
          fc.oneof(
            queryValuePool(p.schema).map((v) => ({ ...req, [p.name]: v })),
            // A required parameter left out.
            fc.constant(p.required ? Object.fromEntries(Object.entries(req).filter(([k]) => k !== p.name)) : { ...req, [p.name]: '' }),
          ),
        )
        .map((q) => baseCase(op, 'query.invalid', { query: Object.entries(q), body: harmlessBadBody, needs: 'invalidQuery' })),
    );
  }
  add(
    2,
    fc
      .tuple(fc.constantFrom(...(qNames.length ? qNames : ['q', 'x'])), badTextArb(false), noiseHeadersArb)
      .map(([name, v, headers]) => baseCase(op, 'query.badText', { query: [[name, v]], headers, body: harmlessBadBody, expect: [400] })),
  );

  // A path or query that does not decode (bad percent-encoding, invalid UTF-8, an encoded
  // surrogate, NUL): 400 INVALID_PARAMETER in the envelope, where Next's router would answer a
  // plain-text 500 (server.mjs hands such a request to the route wrapper; here it arrives as is).
  if (op.pathParams.length > 0) {
    add(
      2,
      fc
        .tuple(fc.constantFrom(...op.pathParams), fc.constantFrom(...UNDECODABLE), fc.constantFrom('', 'a', '1'))
        .map(([p, bad, around]) => baseCase(op, 'path.encoding', { params: { ...realParams(op), [p.name]: { kind: 'encoded', raw: `${around}${bad}${around}` } }, body: harmlessBadBody, expect: [400] })),
    );
  }
  add(
    1,
    fc
      .tuple(fc.constantFrom(...(qNames.length ? qNames : ['q'])), fc.constantFrom(...UNDECODABLE), fc.boolean())
      .map(([name, bad, inName]) => baseCase(op, 'query.encoding', { rawQuery: inName ? `${bad}=1` : `${name}=${bad}`, body: harmlessBadBody, expect: [400] })),
  );

  // An Idempotency-Key outside its declared form, on an otherwise valid request: 400, nothing
  // written (the key is checked before the operation runs).
  if (op.headerParams.some((p) => p.name === 'Idempotency-Key')) {
    const validBody: fc.Arbitrary<TBody> = jsonBody
      ? fc.tuple(validArb(jsonBody, jsonBody), jsonCtArb).map(([value, contentType]) => ({ kind: 'json' as const, value, contentType }))
      : fc.constant({ kind: 'none' as const });
    const badKey = fc.oneof(
      fc.constantFrom(' ', 'two words', 'tab\there', 'é', 'ÿkey', '"quoted key"'),
      fc.integer({ min: 256, max: 600 }).map((n) => letters(n)),
    );
    add(2, fc.tuple(badKey, validBody).map(([key, body]) => baseCase(op, 'header.idempotencyKey', { headers: { 'Idempotency-Key': key }, body, expect: [400], needs: jsonBody ? 'validBody' : null })));
  }

  // Path parameters: malformed (400 or 404) and, for writes, unknown ids (any 4xx, nothing written).
  if (op.pathParams.length > 0) {
    const malformed = fc.constantFrom(...op.pathParams).chain((p) => {
      const maxLen = typeof p.schema.maxLength === 'number' ? p.schema.maxLength : 200;
      return fc
        .oneof(
          fc.integer({ min: Math.max(maxLen, 200) + 1, max: Math.max(maxLen, 200) + 300 }).map((length): TPathValue => ({ kind: 'long', length })),
          fc.integer({ min: 1, max: 40 }).map((n): TPathValue => ({ kind: 'long', length: maxLen + n })),
          badTextArb(true).map((value): TPathValue => ({ kind: 'literal', value })),
        )
        .map((v) => ({ ...realParams(op), [p.name]: v }));
    });
    add(3, malformed.map((params) => baseCase(op, 'path.malformed', { params, body: harmlessBadBody, expect: [400, 404] })));
    if (isWrite(op)) {
      const body: fc.Arbitrary<TBody> = jsonBody
        ? fc.tuple(validArb(jsonBody, jsonBody), jsonCtArb).map(([value, contentType]) => ({ kind: 'json' as const, value, contentType }))
        : fc.constant({ kind: 'none' as const });
      add(
        3,
        fc
          .tuple(fc.constantFrom(...op.pathParams), body)
          .map(([p, b]) =>
            baseCase(op, 'path.unknownId', { params: { ...realParams(op), [p.name]: { kind: 'unknown' } }, body: b, expect: '4xx', needs: jsonBody ? 'validBody' : null }),
          ),
      );
    }
  }

  // JSON bodies (and bodies sent where none is taken).
  if (takesJson(op)) {
    // A Content-Length that is not a length (400), or one over the limit on a small body (413,
    // refused before a byte is read). The body itself is valid, so only the header is wrong.
    const validBody: fc.Arbitrary<TBody> = jsonBody
      ? fc.tuple(validArb(jsonBody, jsonBody), jsonCtArb).map(([value, contentType]) => ({ kind: 'json' as const, value, contentType }))
      : fc.constant({ kind: 'none' as const });
    add(
      1,
      fc
        .tuple(
          fc.oneof(
            fc.constantFrom('abc', '-1', '1e3', '0x10', '1.5', ' ', '18446744073709551616', '1,2', '+5').map((v) => ({ v, status: 400 })),
            fc.integer({ min: op.bodyLimit + 1, max: op.bodyLimit * 64 }).map((n) => ({ v: String(n), status: 413 })),
          ),
          validBody,
        )
        .map(([{ v, status }, body]) => baseCase(op, 'header.contentLength', { contentLength: v, body, expect: [status], needs: jsonBody ? 'validBody' : null })),
    );
    if (jsonBody) {
      add(8, fc.tuple(bodyMutationArb(jsonBody), jsonCtArb).map(([m, contentType]) => baseCase(op, `body.schema (${m.what})`, { body: { kind: 'json', value: m.value, contentType }, needs: 'invalidBody' })));
      const nums = numberSlots(jsonBody);
      if (nums.length > 0) {
        add(
          1,
          fc
            .tuple(validArb(jsonBody, jsonBody), fc.constantFrom(...nums), fc.constantFrom('1e400', '-1e400', '1E309', '123e99999'), jsonCtArb)
            .map(([base, slot, literal, contentType]) =>
              baseCase(op, 'body.numberOverflow', { body: { kind: 'rawNumber', base: base as Record<string, unknown>, field: String(slot.path[0]), literal, contentType } }),
            ),
        );
      }
      // needs: a schema that takes more than objects decides for itself.
      add(
        2,
        fc
          .tuple(fc.constantFrom(...NON_OBJECT_BODIES), jsonCtArb)
          .map(([value, contentType]) => baseCase(op, 'body.notAnObject', { body: { kind: 'json', value, contentType }, needs: 'invalidBody' })),
      );
    } else {
      // No requestBody: only nothing (or {}) is accepted.
      const notEmpty = fc.jsonValue({ maxDepth: 2 }).filter((v) => !(v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0));
      add(6, fc.tuple(notEmpty, jsonCtArb).map(([value, contentType]) => baseCase(op, 'body.notTaken', { body: { kind: 'json', value, contentType } })));
    }
    add(3, fc.tuple(badTextBodyArb(jsonBody, true), jsonCtArb).map(([value, contentType]) => baseCase(op, 'body.badText', { body: { kind: 'json', value, contentType } })));
    add(2, fc.tuple(invalidJsonArb, jsonCtArb).map(([text, contentType]) => baseCase(op, 'body.invalidJson', { body: { kind: 'text', text, contentType } })));
    add(1, fc.tuple(badUtf8BodyArb, jsonCtArb).map(([bytes, contentType]) => baseCase(op, 'body.badUtf8', { body: { kind: 'bytes', bytes, contentType } })));
    add(
      2,
      fc
        .tuple(jsonBody ? validArb(jsonBody, jsonBody) : fc.constant(null), fc.integer({ min: 33, max: 20_000 }), fc.constantFrom<'array' | 'object'>('array', 'object'), jsonCtArb)
        // Object nesting costs 6 bytes a level: at most 8000 levels keeps it under 64 KiB (a 413 is not the point here).
        .map(([base, depth, style, contentType]) =>
          baseCase(op, 'body.tooDeep', {
            body: { kind: 'deep', base: base && typeof base === 'object' && !Array.isArray(base) ? (base as Record<string, unknown>) : null, depth: style === 'object' ? Math.min(depth, 8000) : depth, style, contentType },
          }),
        ),
    );
    add(
      2,
      fc
        .tuple(fc.integer({ min: 1, max: 256 * 1024 }), fc.boolean(), jsonCtArb)
        .map(([extra, streamed, contentType]) => baseCase(op, 'body.tooLarge', { body: { kind: 'oversize', size: op.bodyLimit + extra, streamed, contentType }, expect: [413] })),
    );
    add(
      2,
      fc
        .tuple(fc.constantFrom<string | null>(...WRONG_JSON_CONTENT_TYPES), jsonBody ? validArb(jsonBody, jsonBody) : fc.constantFrom<unknown>({ a: 1 }, [1]))
        .map(([contentType, value]) => baseCase(op, 'body.mediaType', { body: { kind: 'text', text: JSON.stringify(value) || '{"a":1}', contentType }, expect: [415] })),
    );
  }

  // Multipart forms (the image upload).
  if (formBody) {
    const formBase = validArb(formBody, formBody);
    const toFields = (v: unknown): [string, string][] =>
      v && typeof v === 'object' && !Array.isArray(v) ? Object.entries(v).map(([k, x]) => [k, queryString(x)]) : [['value', queryString(v)]];
    const formSlots = slotsOf(formBody, formBody).filter((s) => s.path.length === 1);
    if (formSlots.length > 0) {
      add(
        6,
        fc
          .tuple(formBase, fc.constantFrom(...formSlots))
          .chain(([b, slot]) => queryValuePool(slot.schema).map((v) => setAt(b, slot.path, v)))
          .map((v) => baseCase(op, 'form.schema', { body: { kind: 'form', fields: toFields(v) }, needs: 'invalidBody' })),
      );
    }
    add(
      3,
      fc
        .tuple(formBase, fc.constantFrom(...(formSlots.length ? formSlots.map((s) => String(s.path[0])) : ['field'])), badTextArb(false))
        .map(([b, name, bad]) => baseCase(op, 'form.badText', { body: { kind: 'form', fields: [...toFields(b).filter(([k]) => k !== name), [name, bad]] } })),
    );
    add(
      3,
      fc
        .tuple(fc.constantFrom<string | null>('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/octet-stream', 'image/png', null), fc.boolean())
        .map(([contentType, empty]) =>
          baseCase(op, 'form.mediaType', {
            body: empty && contentType === null ? { kind: 'none' } : { kind: 'text', text: '{"type":"post"}', contentType },
            expect: [415],
          }),
        ),
    );
    add(
      2,
      fc
        .tuple(fc.integer({ min: 1, max: 512 * 1024 }), fc.boolean())
        .map(([extra, streamed]) =>
          baseCase(op, 'form.tooLarge', { body: { kind: 'oversize', size: op.bodyLimit + extra, streamed, contentType: 'multipart/form-data; boundary=fuzzboundary' }, expect: [413] }),
        ),
    );
    add(
      2,
      fc
        .constantFrom(
          { text: 'not a form at all', contentType: 'multipart/form-data; boundary=fuzzboundary' },
          { text: '--fuzzboundary\r\nContent-Disposition: form-data; name="type"\r\n\r\npost', contentType: 'multipart/form-data; boundary=fuzzboundary' },
          { text: '--other\r\n\r\n--other--', contentType: 'multipart/form-data; boundary=fuzzboundary' },
          { text: '--fuzzboundary--\r\n', contentType: 'multipart/form-data' },
        )
        .map(({ text, contentType }) => baseCase(op, 'form.malformed', { body: { kind: 'rawForm', text, contentType }, expect: '4xx' })),
    );
  }

  const arb = fc.oneof(...fams);
  // Every case on a cron route is refused at the door: no case carries the scheduler's secret.
  return op.cron ? arb.map((c) => ({ ...c, expect: [401] })) : arb;
};

/** Whether the document agrees that the case is what it is meant to be (invalid, or a valid body). */
export const documentAgrees = (op: TOperation, v: TValidators, c: TCase): boolean => {
  switch (c.needs) {
    case null:
      return true;
    case 'invalidBody': {
      if (c.body.kind === 'json') return !v.body(c.body.value);
      if (c.body.kind === 'form') return !v.body(Object.fromEntries(c.body.fields));
      return true;
    }
    case 'validBody':
      return c.body.kind !== 'json' || v.body(c.body.value ?? {});
    case 'invalidQuery':
      return !v.query(Object.fromEntries(c.query));
    case 'invalidPath':
      return Object.entries(c.params).some(([k, p]) => p.kind === 'literal' && !v.path(k, p.value));
  }
};

const short = (s: string, n = 80) => (s.length > n ? `${s.slice(0, n)}…(${s.length} chars)` : s);
const show = (v: unknown) => {
  try {
    return short(JSON.stringify(v, (_k, x) => (typeof x === 'string' ? short(x, 60) : x)) ?? String(v), 300);
  } catch {
    return String(v);
  }
};

/** One line describing a case (counterexamples and failure messages). */
export const describeCase = (c: TCase): string => {
  const parts = [`[${c.family}]`];
  const params = Object.entries(c.params).filter(([, p]) => p.kind !== 'real');
  if (params.length) parts.push(`params ${show(Object.fromEntries(params.map(([k, p]) => [k, p.kind === 'literal' ? p.value : p.kind === 'long' ? `<${p.length} letters>` : p.kind === 'encoded' ? `raw ${p.raw}` : p.kind])))}`);
  if (c.query.length) parts.push(`query ${show(c.query)}`);
  if (c.rawQuery) parts.push(`raw query ${c.rawQuery}`);
  if (c.manyParams) parts.push(`${c.manyParams} query parameters`);
  if (c.pad) parts.push(`pad=<${c.pad} letters>`);
  if (c.auth.kind !== 'caller') parts.push(`auth ${c.auth.kind === 'header' ? JSON.stringify(c.auth.value) : c.auth.kind === 'junkBearer' ? `Bearer <${c.auth.length} junk>` : c.auth.kind}`);
  const b = c.body;
  const ct = 'contentType' in b ? ` (Content-Type ${b.contentType === null ? 'none' : b.contentType})` : '';
  if (b.kind === 'json') parts.push(`body ${show(b.value)}${ct}`);
  else if (b.kind === 'text') parts.push(`body text ${show(b.text)}${ct}`);
  else if (b.kind === 'bytes') parts.push(`body bytes [${b.bytes.map((x) => x.toString(16)).join(' ')}]${ct}`);
  else if (b.kind === 'rawNumber') parts.push(`body ${show(b.base)} with ${b.field}: ${b.literal}${ct}`);
  else if (b.kind === 'deep') parts.push(`body nested ${b.depth} deep (${b.style})${ct}`);
  else if (b.kind === 'oversize') parts.push(`body of ${b.size} bytes, ${b.streamed ? 'streamed, no Content-Length' : 'with Content-Length'}${ct}`);
  else if (b.kind === 'form') parts.push(`form ${show(b.fields)}`);
  else if (b.kind === 'rawForm') parts.push(`form text ${show(b.text)} (Content-Type ${b.contentType})`);
  if (c.contentLength !== undefined) parts.push(`Content-Length ${JSON.stringify(c.contentLength)}`);
  if (Object.keys(c.headers).length) parts.push(`headers ${show(c.headers)}`);
  return parts.join(' ');
};
