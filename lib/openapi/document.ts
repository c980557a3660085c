/**
 * Builds the OpenAPI 3.1 document from the endpoint registry, with zod's own JSON Schema output
 * (OpenAPI 3.1 schemas are JSON Schema 2020-12). Pure: no I/O.
 *
 * The document is meant to be honest, not flattering: in tests every answer is validated against
 * it strictly (test/setup-db.ts), a generated client is type-checked against it
 * (test/openapi-client), and Redocly's recommended rules lint it (test/openapi/lint.test.ts).
 * So each operation declares every status the route wrapper (lib/http/route.ts) can answer for
 * it, not only the ones its service throws: a bad token is refused even on public routes, any
 * route can meet a bad URL, the rate limit, its deadline or a failing dependency, and any route
 * that reads a body can meet a body too large or of the wrong type.
 */
import { z } from 'zod';
import { endpoints } from '@/lib/contracts';
import { isPrivileged } from '@/lib/auth/permissions';
import { SESSION_COOKIE, SESSION_COOKIE_SECURE } from '@/lib/auth/session-names';
import { ZErrorBody } from '@/lib/contracts/common';
import type { TEndpoint } from '@/lib/contracts/endpoint';
import { ERROR_STATUS, type TErrorCode } from '@/lib/errors/app-error';
import { DEFAULT_JSON_BODY_LIMIT, KIB, MAX_QUERY_PARAMS, MAX_URL_LENGTH, MIB } from '@/lib/http/limits';
import { DEFAULT_DEADLINE_MS } from '@/lib/operations/bounds';
import { RATE_LIMITS, type TRateLimitRule } from '@/lib/contracts/rate-limits';
import { IMAGE_FORMATS } from '@/lib/uploads/formats';

type TJson = Record<string, unknown>;

/** The vendor extension on each error response listing the codes it may carry (the check reads it). */
export const ERROR_CODES_KEY = 'x-error-codes';

const schemaOf = (s: z.ZodType, io: 'input' | 'output'): TJson => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as TJson;
  return rest;
};

/** Methods whose body the wrapper never reads (so they cannot answer 413 or 415). */
const BODYLESS_METHODS = new Set(['GET']);
const readsBody = (e: TEndpoint) => !BODYLESS_METHODS.has(e.method) && e.readsBody !== false;

const sizeText = (bytes: number) => (bytes % MIB === 0 ? `${bytes / MIB} MiB` : bytes % KIB === 0 ? `${bytes / KIB} KiB` : `${bytes} bytes`);

// ---------------------------------------------------------------------------------------------
// Routing overlaps. The paths are the interface specification's; where a static segment and a
// parameter overlap (/api/users/by-username/{username} and /api/users/{userId}/profile), Next.js
// compares segment by segment and a static segment wins over a parameter. Each affected
// operation says so (redocly.yaml turns off no-ambiguous-paths for this reason).

const segmentsOf = (path: string) => path.split('/').filter(Boolean);
const isParam = (segment: string) => segment.startsWith('{');

/**
 * For two paths that some URL matches both of, the one that wins it and the parameter of the
 * loser that can never take the winner's static segment; undefined when no URL matches both.
 */
const overlapOf = (a: string, b: string) => {
  const sa = segmentsOf(a);
  const sb = segmentsOf(b);
  if (sa.length !== sb.length) return undefined;
  let first: number | undefined;
  for (let i = 0; i < sa.length; i++) {
    const [x, y] = [sa[i]!, sb[i]!];
    if (!isParam(x) && !isParam(y) && x !== y) return undefined;
    if (first === undefined && isParam(x) !== isParam(y)) first = i;
  }
  if (first === undefined) return undefined;
  const aWins = !isParam(sa[first]!);
  const [winner, loser] = aWins ? [sa, sb] : [sb, sa];
  return { winner: aWins ? a : b, loser: aWins ? b : a, param: loser[first]!, value: winner[first]! };
};

const routingNotes = (paths: readonly string[]) => {
  const lost = new Map<string, string[]>();
  const won = new Map<string, string[]>();
  const push = (m: Map<string, string[]>, k: string, v: string) => m.set(k, [...(m.get(k) ?? []), v]);
  for (let i = 0; i < paths.length; i++) {
    for (let j = i + 1; j < paths.length; j++) {
      const o = overlapOf(paths[i]!, paths[j]!);
      if (!o) continue;
      push(lost, o.loser, `\`${o.param}\` = \`${o.value}\` is served by \`${o.winner}\``);
      push(won, o.winner, `\`${o.loser}\``);
    }
  }
  const notes = new Map<string, string[]>();
  const RULE = '(a static path segment wins over a parameter)';
  for (const [path, what] of lost) notes.set(path, [`Routing: ${what.join('; ')} ${RULE}.`]);
  for (const [path, what] of won) {
    notes.set(path, [...(notes.get(path) ?? []), `Routing: this route wins where it overlaps ${what.join(', ')} ${RULE}.`]);
  }
  return notes;
};

// ---------------------------------------------------------------------------------------------
// Responses

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

const COMMON_HEADERS = {
  'X-Request-Id': headerRef('X-Request-Id'),
  'X-RateLimit-Limit': headerRef('X-RateLimit-Limit'),
  'X-RateLimit-Remaining': headerRef('X-RateLimit-Remaining'),
  'X-RateLimit-Reset': headerRef('X-RateLimit-Reset'),
};

const HEADERS = {
  'X-Request-Id': {
    description: 'Identifies the request in the server log (quote it when reporting a problem).',
    required: true,
    schema: { type: 'string', format: 'uuid' },
  },
  'X-RateLimit-Limit': {
    description:
      'Requests allowed in the window of the rule that applies (present once the rate limit was checked: on every answer but an early 500/503); ' +
      `in the bad-input penalty box, the budget's ${RATE_LIMITS.badInput.limit}.`,
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current window.',
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Reset': {
    description: 'When the window resets, in Unix seconds.',
    schema: { type: 'integer', minimum: 0 },
  },
  'Retry-After': {
    description: 'Seconds to wait before trying again.',
    schema: { type: 'integer', minimum: 0 },
  },
  'Idempotent-Replayed': {
    description: 'Present (`true`) when this is the stored answer to an earlier request with the same Idempotency-Key: nothing moved this time.',
    schema: { type: 'string', enum: ['true'] },
  },
};

/** Why each code a route can answer whatever it does is answered (the others speak for themselves). */
const CODE_NOTES: Partial<Record<TErrorCode, string>> = {
  INVALID_PARAMETER: `an invalid path or query parameter (text with control characters or lone surrogates included), or more than ${MAX_QUERY_PARAMS} query parameters`,
  VALIDATION_ERROR: 'an invalid request body: malformed JSON, nested too deep, text with control characters or lone surrogates, a body where none is taken; or a value out of range',
  FORBIDDEN: 'not allowed: another user\'s data, not an administrator, or a request another site could have made a signed-in browser send (a cookie-authenticated write, or GET that writes, not from this origin; a sign-in from another origin)',
  PAYLOAD_TOO_LARGE: 'the body is larger than the route accepts; refused unread',
  URI_TOO_LONG: `path and query are longer than ${MAX_URL_LENGTH} characters`,
  UNSUPPORTED_MEDIA_TYPE: 'the body\'s Content-Type is not one the route reads',
  RATE_LIMIT_EXCEEDED:
    `too many requests in the window of the operation's rule (x-rate-limit), or the caller is in the bad-input penalty box: more than ${RATE_LIMITS.badInput.limit} ` +
    `requests refused as malformed in ${RATE_LIMITS.badInput.windowSec} s, after which every request waits a second and is refused until the window ends ` +
    '(Retry-After says how long to wait)',
  INTERNAL_ERROR: 'an unexpected failure; details carry the request id only',
  INSUFFICIENT_SCOPE: 'called with an API key whose scopes (read, trade, social) do not cover this operation; details: required, scopes',
  KEY_LIMIT_EXCEEDED: "called with an API key and above its per-order amount, past its daily limit or above its leverage cap; details: cap, limit, requested (and spent, resetsAt for the daily limit); nothing was written",
  DEADLINE_EXCEEDED: 'the request ran past its deadline and was abandoned; nothing it did was kept',
  SERVICE_UNAVAILABLE: 'a dependency (database, rate-limit store) is not answering',
  IDEMPOTENCY_KEY_REUSED: 'the Idempotency-Key was already used by this caller for a different request (another operation or body)',
  IDEMPOTENCY_KEY_IN_USE: 'the first request with this Idempotency-Key is still running: retry with the same key shortly',
};

const STATUS_TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  422: 'Unprocessable content',
  413: 'Payload too large',
  414: 'URI too long',
  415: 'Unsupported media type',
  429: 'Too many requests',
  500: 'Internal error',
  503: 'Service unavailable',
};

const errorResponse = (status: number, codes: readonly string[], extraHeaders: TJson = {}, notes = CODE_NOTES) => ({
  description: `${STATUS_TITLES[status] ?? 'Error'}. Codes: ${codes
    .map((c) => (notes[c as TErrorCode] ? `${c} (${notes[c as TErrorCode]})` : c))
    .join('; ')}.`,
  headers: { ...COMMON_HEADERS, ...extraHeaders },
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  [ERROR_CODES_KEY]: [...codes],
});

/** Why a route refuses credentials, by its auth kind (each operation declares its own 401). */
const UNAUTHORIZED_NOTES: Record<TEndpoint['auth'], string> = {
  public: 'a token or session was sent and failed verification (none is required)',
  user: 'missing or invalid token or session',
  cron: 'missing or wrong scheduler secret',
  metrics: 'missing or invalid token or session, and not the metrics secret',
};

/** Error answers every route (or every route that reads a body) can give, whatever it does. */
const SHARED_ERROR_RESPONSES = {
  PayloadTooLarge: errorResponse(413, ['PAYLOAD_TOO_LARGE']),
  UriTooLong: errorResponse(414, ['URI_TOO_LONG']),
  UnsupportedMediaType: errorResponse(415, ['UNSUPPORTED_MEDIA_TYPE']),
  RateLimited: errorResponse(429, ['RATE_LIMIT_EXCEEDED'], { 'Retry-After': headerRef('Retry-After') }),
  InternalError: errorResponse(500, ['INTERNAL_ERROR']),
  Unavailable: errorResponse(503, ['DEADLINE_EXCEEDED', 'SERVICE_UNAVAILABLE'], { 'Retry-After': headerRef('Retry-After') }),
};
const responseRef = (name: keyof typeof SHARED_ERROR_RESPONSES) => ({ $ref: `#/components/responses/${name}` });
const SHARED_BY_STATUS: Record<number, keyof typeof SHARED_ERROR_RESPONSES> = {
  413: 'PayloadTooLarge',
  414: 'UriTooLong',
  415: 'UnsupportedMediaType',
  429: 'RateLimited',
  500: 'InternalError',
  503: 'Unavailable',
};

/**
 * A money POST, or the A2A endpoint (whose payment methods honour the key; their refusals are
 * JSON-RPC errors inside its 200, so it declares the header but not the 409 and 422).
 */
const acceptsIdempotencyKey = (e: TEndpoint) => !!e.idempotent || !!e.jsonRpc;

/** Every error code the wrapper and the service can answer for this endpoint. */
const errorCodesOf = (e: TEndpoint): Set<TErrorCode> => {
  const codes = new Set<TErrorCode>([
    'INVALID_PARAMETER',
    'VALIDATION_ERROR', // a data exception (a value out of range) on any route, and bad bodies
    'UNAUTHORIZED',
    'URI_TOO_LONG',
    'RATE_LIMIT_EXCEEDED',
    'INTERNAL_ERROR',
    'DEADLINE_EXCEEDED',
    'SERVICE_UNAVAILABLE',
    ...(e.errors ?? []),
    ...Object.values(e.fieldErrors ?? {}),
  ]);
  if (e.idempotent) {
    codes.add('IDEMPOTENCY_KEY_REUSED');
    codes.add('IDEMPOTENCY_KEY_IN_USE');
  }
  // A caller without a permission the operation requires (a player on a moderator's or an administrator's route).
  if (isPrivileged(e.requires)) codes.add('FORBIDDEN');
  // A call made with an API key outside its scopes (CONTRACT.md "API keys"), or past its caps.
  if (e.auth !== 'cron' && e.requires && e.requires.length > 0) codes.add('INSUFFICIENT_SCOPE');
  if (e.keyCaps) codes.add('KEY_LIMIT_EXCEEDED');
  // A banned caller's writes (lib/operations/run-operation.ts).
  if (e.method !== 'GET' && e.auth !== 'cron' && !e.allowBanned) codes.add('USER_BANNED');
  if (readsBody(e)) {
    codes.add('PAYLOAD_TOO_LARGE');
    codes.add('UNSUPPORTED_MEDIA_TYPE');
    // A write authenticated by the session cookie must come from our own origin.
    if (e.auth !== 'cron') codes.add('FORBIDDEN');
  }
  // A GET that writes refuses a cookie caller from another site (lib/http/route.ts).
  if (e.writesOnGet) codes.add('FORBIDDEN');
  return codes;
};

const successContent = (e: TEndpoint): TJson => {
  const type = e.responseType ?? 'application/json';
  if (type === 'application/json') return { [type]: { schema: schemaOf(e.response, 'output') } };
  if (type === 'text/event-stream') return { [type]: { schema: { type: 'string', description: 'a stream of Server-Sent Events frames' } } };
  if (type === 'text/plain') return { [type]: { schema: { type: 'string', description: e.response.description } } };
  // Image bytes, with the stored image's own media type.
  return Object.fromEntries(IMAGE_TYPES.map((t) => [t, { schema: { type: 'string', contentMediaType: t, description: e.response.description } }]));
};

/** Stored images are immutable: their ETag is their key, and a matching If-None-Match gets a 304. */
const isImage = (e: TEndpoint) => e.responseType === 'image/*';
const IMAGE_CACHE_HEADERS = {
  ETag: { description: 'The image key, quoted; never changes', required: true, schema: { type: 'string' } },
  'Cache-Control': { description: 'public, max-age=31536000, immutable', required: true, schema: { type: 'string' } },
};

const responsesOf = (e: TEndpoint): TJson => {
  const responses: TJson = {
    [String(e.status ?? 200)]: {
      description: 'Success',
      headers: isImage(e)
        ? { ...COMMON_HEADERS, ...IMAGE_CACHE_HEADERS }
        : acceptsIdempotencyKey(e)
          ? { ...COMMON_HEADERS, 'Idempotent-Replayed': headerRef('Idempotent-Replayed') }
          : COMMON_HEADERS,
      content: successContent(e),
    },
  };
  if (e.jsonRpc) {
    responses['204'] = { description: 'A batch of notifications only (requests without an id): no answer', headers: COMMON_HEADERS };
  }
  if (isImage(e)) {
    responses['304'] = { description: 'Not modified: If-None-Match named the image\'s ETag', headers: { ...COMMON_HEADERS, ...IMAGE_CACHE_HEADERS } };
  }
  const byStatus = new Map<number, string[]>();
  for (const code of errorCodesOf(e)) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    const shared = SHARED_BY_STATUS[status];
    const codes = byStatus.get(status)!;
    const notes = { ...CODE_NOTES, UNAUTHORIZED: UNAUTHORIZED_NOTES[e.auth] };
    const sharedCodes = shared ? SHARED_ERROR_RESPONSES[shared][ERROR_CODES_KEY] : undefined;
    responses[String(status)] =
      shared && sharedCodes!.length === codes.length && codes.every((c) => sharedCodes!.includes(c))
        ? responseRef(shared)
        : errorResponse(status, codes, {}, notes);
  }
  return responses;
};

// ---------------------------------------------------------------------------------------------
// Requests

const parametersOf = (e: TEndpoint) => {
  const out: TJson[] = [];
  for (const [where, schema] of [
    ['path', e.params],
    ['query', e.query],
  ] as const) {
    if (!schema) continue;
    const js = schemaOf(schema, 'input') as { properties?: Record<string, TJson>; required?: string[] };
    for (const [name, prop] of Object.entries(js.properties ?? {})) {
      const { description, ...rest } = prop;
      out.push({
        name,
        in: where,
        required: where === 'path' || (js.required ?? []).includes(name),
        ...(typeof description === 'string' ? { description } : {}),
        schema: rest,
      });
    }
  }
  if (e.responseType === 'text/event-stream') {
    out.push({ name: 'Last-Event-ID', in: 'header', required: false, description: 'Resume after this event id (what browsers send on reconnect)', schema: { type: 'string', maxLength: 50 } });
  }
  if (acceptsIdempotencyKey(e)) {
    out.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Makes a retry safe: the first answer is stored with this key for 24 hours; a repeat with the same key and body replays it ' +
        '(header Idempotent-Replayed: true) and moves nothing; the same key with another body is 422, and a repeat while the first ' +
        'is still running waits for it (409 if it takes too long). Any 1 to 255 visible ASCII characters; a UUID per user action is usual.',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
    });
  }
  if (isImage(e)) {
    out.push({ name: 'If-None-Match', in: 'header', required: false, description: 'The ETag of a copy already held (304 when it matches)', schema: { type: 'string', maxLength: 300 } });
  }
  return out;
};

const IMAGE_TYPES = Object.values(IMAGE_FORMATS).map((f) => f.contentType);

/** The media types a JSON body may be sent as (lib/http/limits.ts isJsonMediaType): the document lists each. */
export const JSON_MEDIA_TYPES = ['application/json', 'application/*+json'] as const;

/**
 * The multipart form: the zod schema holds its text fields (what the wrapper parses), the file
 * part is added here (the service reads it from the form and checks it by content).
 */
const multipartBody = (e: TEndpoint) => {
  const text = schemaOf(e.body!, 'input') as { properties?: TJson; required?: string[] };
  return {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          ...text,
          type: 'object',
          properties: {
            file: {
              type: 'string',
              format: 'binary',
              contentMediaType: 'application/octet-stream',
              description: `The image: ${IMAGE_TYPES.join(', ')}, recognised by its content (never by name or declared type)`,
            },
            ...text.properties,
          },
          required: ['file', ...(text.required ?? [])],
        },
        encoding: { file: { contentType: IMAGE_TYPES.join(', ') } },
      },
    },
  };
};

const requestBodyOf = (e: TEndpoint) => {
  if (!e.body) return undefined;
  if (e.multipart) return multipartBody(e);
  return {
    // A body whose every field is optional may be left out (the wrapper reads none as {}).
    required: !e.body.safeParse({}).success,
    // What the wrapper reads (lib/http/limits.ts isJsonMediaType): JSON, under its own type or a +json one; anything else is 415.
    content: Object.fromEntries(JSON_MEDIA_TYPES.map((t) => [t, { schema: schemaOf(e.body!, 'input') }])),
  };
};

const SECURITY = {
  user: [{ bearer: [] }, { session: [] }],
  cron: [{ cronSecret: [] }],
  metrics: [{ bearer: [] }, { session: [] }, { metricsToken: [] }],
  // Anyone; a valid token, when sent, personalises the answer (and an invalid one is refused).
  public: [{}, { bearer: [] }, { session: [] }],
} as const;

const descriptionOf = (e: TEndpoint, notes: readonly string[]) => {
  const lines: string[] = [];
  if (e.auth === 'public') lines.push('Public: a valid token, when sent, personalises the answer; an invalid one is refused (401).');
  if (e.requires?.includes('admin')) lines.push('Administrators only (403 FORBIDDEN for others).');
  else if (e.requires?.includes('moderate')) lines.push('Moderators and administrators only (403 FORBIDDEN for others).');
  if (readsBody(e)) {
    lines.push(
      `Request body at most ${sizeText(e.bodyLimit ?? DEFAULT_JSON_BODY_LIMIT)} (413 beyond)${e.body ? '' : '; this route takes none (send none, or {})'}.`,
    );
    lines.push(
      e.multipart
        ? 'Body type: multipart/form-data only (415 UNSUPPORTED_MEDIA_TYPE for any other).'
        : `Body type: ${JSON_MEDIA_TYPES.join(' or ')} only (415 UNSUPPORTED_MEDIA_TYPE for any other, text/plain and forms included).`,
    );
  }
  if (e.jsonRpc) {
    lines.push(
      'JSON-RPC 2.0: every request that reaches the protocol is answered with HTTP 200, errors included (-32700, -32600, -32601, -32602, ' +
        '-32603; -32000 for a domain failure with data {code, status} of the REST error). Each call counts against its method\'s rate ' +
        'limit and has its own deadline; an answer in which no call ran counts once under the rule below.',
    );
  }
  lines.push(`Deadline ${(e.deadlineMs ?? DEFAULT_DEADLINE_MS) / 1000} s (503 DEADLINE_EXCEEDED beyond).`);
  return [...lines, ...notes].join('\n\n');
};

/**
 * The rate limits of an operation (`x-rate-limit`), as lib/operations/run-operation.ts counts
 * them: a call without a token counts per client address, a call with one per account (the
 * scheduler's secret: one counter), each under the operation's own rule when it has one, else
 * under the caller's general rule (public or authenticated). Each figure names its rule:
 * operations naming the same rule share one counter (like and unlike, buy and sell).
 */
export function rateLimitsOf(e: TEndpoint) {
  const figure = (rule: TRateLimitRule, per: 'address' | 'account' | 'scheduler') => ({
    rule,
    limit: RATE_LIMITS[rule].limit,
    windowSeconds: RATE_LIMITS[rule].windowSec,
    per,
  });
  return {
    anonymous: figure(e.rateLimit ?? 'public', 'address'),
    authenticated: figure(e.rateLimit ?? 'authenticated', e.auth === 'cron' ? 'scheduler' : 'account'),
  };
}

/** The operation of one endpoint (its references point into the document's components). */
export function operationOf(e: TEndpoint, notes: readonly string[] = []) {
  const op: TJson = {
    operationId: e.id,
    summary: e.summary,
    description: descriptionOf(e, notes),
    tags: [e.tag],
    security: SECURITY[e.auth],
    parameters: parametersOf(e),
  };
  const body = requestBodyOf(e);
  if (body) op.requestBody = body;
  op.responses = responsesOf(e);
  op['x-rate-limit'] = rateLimitsOf(e);
  if (e.jsonRpc) op['x-jsonrpc'] = true;
  return op;
}

/** The document of every endpoint that is an operation of the API (hidden fallbacks are not). */
export function buildOpenApiDocument(version: string, registry: readonly TEndpoint[] = endpoints) {
  const visible = registry.filter((e) => !e.hidden);
  const notes = routingNotes([...new Set(visible.map((e) => e.path))]);
  const paths: Record<string, Record<string, TJson>> = {};
  for (const e of visible) {
    (paths[e.path] ??= {})[e.method.toLowerCase()] = operationOf(e, notes.get(e.path) ?? []);
  }
  return {
    openapi: '3.1.0' as const,
    info: {
      title: 'Play-money social trading and prediction markets',
      version,
      description:
        'Every route of the service. Errors are {success:false, error:{code, message, details?}}; every response carries ' +
        'X-Request-Id and X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset. Text fields refuse control ' +
        'characters and lone surrogates; bodies, URLs and query strings are bounded (see each operation). Writes read ' +
        `${JSON_MEDIA_TYPES.join(' or ')} bodies (the image upload: multipart/form-data) and nothing else (415).\n\n` +
        'Rate limits: each operation\'s x-rate-limit gives the budget of a call without a token (per client address) and of a ' +
        'call with one (per account); past it the answer is 429 RATE_LIMIT_EXCEEDED with Retry-After.\n\n' +
        `Bad input: every caller (per account, or per address without a token) has a budget of ${RATE_LIMITS.badInput.limit} ` +
        `requests refused as malformed (400 VALIDATION_ERROR or INVALID_PARAMETER, 413, 414, 415) per ${RATE_LIMITS.badInput.windowSec} s. ` +
        'Past it the caller is in a penalty box until that window ends: every request it makes, valid ones included, waits a ' +
        `second and is answered 429 RATE_LIMIT_EXCEEDED (X-RateLimit-Limit: ${RATE_LIMITS.badInput.limit}, Retry-After: the seconds left). ` +
        'A client that validates its input against this document never gets near it.',
      // A private project: no public license (SPDX LicenseRef- for a proprietary one).
      license: { name: 'Proprietary (private project, no public license)', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: { Error: schemaOf(ZErrorBody, 'output') },
      responses: SHARED_ERROR_RESPONSES,
      headers: HEADERS,
      securitySchemes: {
        bearer: { type: 'http' as const, scheme: 'bearer', bearerFormat: 'JWT' },
        session: {
          type: 'apiKey' as const,
          in: 'cookie' as const,
          name: SESSION_COOKIE_SECURE,
          description: `The web session cookie POST /api/auth/session sets: ${SESSION_COOKIE_SECURE} (Secure, HttpOnly, SameSite=Lax) in production, ${SESSION_COOKIE} outside it; POST /api/auth/sign-out revokes the session.`,
        },
        cronSecret: { type: 'http' as const, scheme: 'bearer', description: 'CRON_SECRET' },
        metricsToken: { type: 'http' as const, scheme: 'bearer', description: 'METRICS_TOKEN: a Prometheus scraper, no user' },
      },
    },
  };
}

export type TOpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

let served: { version: string; document: ReturnType<typeof buildOpenApiDocument> } | undefined;

/**
 * The document GET /api/openapi.json serves, built once per process: the registry does not
 * change while the server runs, and building it costs tens of milliseconds of CPU.
 */
export function getOpenApiDocument(version: string) {
  if (served?.version !== version) served = { version, document: buildOpenApiDocument(version) };
  return served.document;
}
