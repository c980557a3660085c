/**
 * The strict check every answer a test provokes goes through (test/setup-db.ts installs it with
 * lib/http/route.ts `setResponseCheck`): the answer's status must be declared by its operation in
 * the OpenAPI document, its JSON must validate against that status's application/json schema
 * (JSON Schema 2020-12, the document's own dialect, with its additionalProperties: false), and
 * an error's code must be one the response lists. What a generated client would reject fails
 * the test that caused it.
 *
 * The document is built on first use and each validator compiled on first use and cached: tests
 * check thousands of answers, most of them against a few schemas.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { endpoints } from '@/lib/contracts';
import type { TEndpoint } from '@/lib/contracts/endpoint';
import type { TResponseCheck } from '@/lib/http/route';
import { ERROR_CODES_KEY, operationOf, type TOpenApiDocument } from '@/lib/openapi/document';

type TJson = Record<string, unknown>;

const isObject = (v: unknown): v is TJson => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The value a local reference ("#/components/schemas/Error") points at in the document. */
const pointAt = (doc: unknown, ref: string): unknown => {
  if (!ref.startsWith('#/')) throw new Error(`Only local references are supported, not ${ref}`);
  let node = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    node = isObject(node) ? node[key] : undefined;
    if (node === undefined) throw new Error(`Dangling reference ${ref}`);
  }
  return node;
};

/** `node`, or what it refers to when it is a reference (one level: a response object). */
const resolve = (doc: unknown, node: unknown): unknown =>
  isObject(node) && typeof node.$ref === 'string' ? resolve(doc, pointAt(doc, node.$ref)) : node;

/** A copy of `node` with every reference into the document replaced by what it points at. */
const deref = (doc: unknown, node: unknown): unknown => {
  if (Array.isArray(node)) return node.map((n) => deref(doc, n));
  if (!isObject(node)) return node;
  if (typeof node.$ref === 'string') return deref(doc, pointAt(doc, node.$ref));
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, deref(doc, v)]));
};

const MAX_PROBLEM_LENGTH = 600;

/** A response check against the document `build` returns (built on the first answer checked). */
export const createResponseCheck = (build: () => TOpenApiDocument): TResponseCheck => {
  let doc: TOpenApiDocument | undefined;
  // Strict, except that a list of types (`type: ["string", "number", "null"]`, what zod writes for
  // a union of scalars such as a JSON-RPC id) is plain JSON Schema 2020-12, not a mistake.
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  addFormats(ajv);
  const validators = new Map<string, ValidateFunction>();

  const validatorFor = (key: string, schema: unknown) => {
    let v = validators.get(key);
    if (!v) {
      v = ajv.compile(deref(doc, schema) as TJson);
      validators.set(key, v);
    }
    return v;
  };

  /**
   * The endpoint's operation in the document; for an endpoint of a test's own (not in the
   * registry), the operation the document would give it, so its answers are held to the same rules.
   */
  const registered = new Set<TEndpoint>(endpoints);
  const adHoc = new WeakMap<TEndpoint, TJson>();
  const operationFor = (endpoint: TEndpoint): TJson | undefined => {
    if (!registered.has(endpoint)) {
      let op = adHoc.get(endpoint);
      if (!op) adHoc.set(endpoint, (op = operationOf(endpoint)));
      return op;
    }
    return (doc!.paths[endpoint.path] as Record<string, TJson> | undefined)?.[endpoint.method.toLowerCase()];
  };

  const validate = (key: string, schema: unknown, json: unknown): string | null => {
    // A top-level reference (the shared Error schema) is compiled once, whichever answer uses it.
    const v = validatorFor(isObject(schema) && typeof schema.$ref === 'string' ? schema.$ref : key, schema);
    if (v(json)) return null;
    const problems = (v.errors ?? []).map((e) => {
      const where = e.instancePath || '/';
      const extra = 'additionalProperty' in e.params ? ` "${String(e.params.additionalProperty)}"` : '';
      return `${where} ${e.message ?? 'is invalid'}${extra}`;
    });
    return [...new Set(problems)].join('; ').slice(0, MAX_PROBLEM_LENGTH);
  };

  return (endpoint, status, payload) => {
    doc ??= build();
    // What the client receives: dates become strings, undefined fields vanish, NaN becomes null.
    const json: unknown = payload === undefined ? undefined : JSON.parse(JSON.stringify(payload));
    if (endpoint.hidden) {
      // Not an operation (the JSON 404 and 405 fallbacks): its answers are errors in the envelope.
      return validate('#/components/schemas/Error', { $ref: '#/components/schemas/Error' }, json);
    }
    const operation = operationFor(endpoint);
    if (!operation) return `${endpoint.method} ${endpoint.path} is not in the document`;
    const responses = operation.responses as TJson;
    const declared = responses[String(status)];
    if (!declared) return `status ${status} is not declared (declared: ${Object.keys(responses).join(', ')})`;
    const response = resolve(doc, declared) as TJson;
    const content = (response.content ?? {}) as Record<string, { schema?: unknown }>;
    const media = content['application/json'];
    if (!media) {
      // Streams and image bytes are not JSON and never reach this check as a payload.
      if (json === undefined) return null;
      return `answered JSON where status ${status} declares only ${Object.keys(content).join(', ') || 'no content'}`;
    }
    const problem = validate(`${endpoint.id} ${endpoint.method} ${endpoint.path} ${status}`, media.schema ?? {}, json);
    if (problem) return problem;
    const codes = response[ERROR_CODES_KEY] as string[] | undefined;
    const code = isObject(json) && isObject(json.error) ? json.error.code : undefined;
    if (codes && typeof code === 'string' && !codes.includes(code)) {
      return `error code ${code} is not declared for status ${status} (declared: ${codes.join(', ')})`;
    }
    return null;
  };
};
