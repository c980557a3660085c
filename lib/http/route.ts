/**
 * route(endpoint, handler): the REST adapter over the operation core (lib/operations). It does
 * only what is HTTP's:
 *   reads the credentials (bearer header or session cookie) and the client address,
 *   checks the URL: its bounds (414 URI_TOO_LONG, too many query parameters 400) and that its
 *   path and query decode (400 INVALID_PARAMETER, also for what server.mjs flagged before Next's
 *   router could answer it in plain text),
 *   refuses what another site could make a signed-in browser send (403 FORBIDDEN): a
 *   cookie-authenticated write not from our own origin, a cookie-authenticated GET that writes
 *   (`writesOnGet`) not from our own page, and on sign-in (`sameOrigin: 'always'`) a foreign
 *   origin with or without a cookie (README "CORS policy for /api"),
 *   reads the body within its route's limit when the core asks for it: size first (413
 *   PAYLOAD_TOO_LARGE, unread), media type (415: JSON only, or multipart on the upload), UTF-8,
 *   nesting depth, JSON (400), with the reader every HTTP transport shares (./body.ts),
 *   and turns the outcome into a Response: JSON with `success: true` (in tests checked against
 *   the OpenAPI document), or the error envelope with the status of its code; anything that is
 *   not a typed error is a 500 INTERNAL_ERROR with a request id only.
 * Everything else (auth, rate limits, the bad-input budget, parsing, the deadline, the caller)
 * is the core's, shared with every other transport.
 * Every answer carries X-RateLimit-Limit, -Remaining, -Reset (Unix seconds), X-Request-Id, and the
 * API's security and CORS headers (lib/http/security-headers.ts).
 */
import 'server-only';
import type { NextRequest, NextResponse } from 'next/server';
import type { TCaller } from '@/lib/auth/caller';
import { readCredentials, type TCallerRead, type TPrincipal } from '@/lib/principals/principal';
import type { TEndpoint, TEndpointBody, TEndpointParams, TEndpointQuery, TEndpointResult } from '@/lib/contracts/endpoint';
import { env } from '@/lib/env';
import { AppError, errorBody, isAppError } from '@/lib/errors/app-error';
import { runOperation } from '@/lib/operations/run-operation';
import { errorAnswer, jsonAnswer as json, readBodyBytes, readJson } from './body';
import { clientIp } from './client-ip';
import { INVALID_TARGET_HEADER, requestTargetProblem } from './node-guard.mjs';
import { DEFAULT_JSON_BODY_LIMIT, MAX_QUERY_PARAMS, MAX_URL_LENGTH, mediaTypeOf } from './limits';
import type { TLimitResult } from '@/lib/operations/rate-limit';
import { apiHeaders } from './security-headers';
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER } from '@/lib/idempotency/key';
import { observeRequest } from '@/lib/metrics/recorder';

export type THandlerContext<E extends TEndpoint> = {
  req: NextRequest;
  /** Who the call acts for (null only on a public route called anonymously). */
  caller: E['auth'] extends 'user' ? TCaller : TCaller | null;
  principal: E['auth'] extends 'user' ? TPrincipal : TPrincipal | null;
  params: TEndpointParams<E>;
  query: TEndpointQuery<E>;
  body: TEndpointBody<E>;
  /** The raw form data of a multipart endpoint. */
  form?: FormData;
  requestId: string;
  ip: string;
};

export type THandler<E extends TEndpoint> = (ctx: THandlerContext<E>) => Promise<TEndpointResult<E> | Response>;

type TRouteContext = { params?: Promise<Record<string, string | string[] | undefined>> };

/**
 * In tests, every answer (success or error) is handed to this check before it leaves, so that
 * contract drift fails the test that caused it (test/setup-db.ts installs a strict JSON Schema
 * check against the OpenAPI document). Returns a description of what is wrong, or null.
 */
export type TResponseCheck = (endpoint: TEndpoint, status: number, payload: unknown) => string | null;
let responseCheck: TResponseCheck | undefined;
export function setResponseCheck(check: TResponseCheck | undefined) {
  responseCheck = check;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether an Origin header names this service (the request's host, or PUBLIC_BASE_URL's). */
const isOurOrigin = (req: NextRequest, origin: string) => {
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return false;
  }
  const host = req.headers.get('x-forwarded-host') ?? req.headers.get('host');
  const publicHost = env().publicBaseUrl ? new URL(env().publicBaseUrl!).host : undefined;
  return originHost === host || originHost === publicHost;
};

/** A cookie-authenticated write must come from our own origin, so no other site can act for a player. */
export function assertSameOrigin(req: NextRequest) {
  const origin = req.headers.get('origin');
  if (!origin) {
    if (req.headers.get('sec-fetch-site') === 'same-origin') return;
    throw new AppError('FORBIDDEN', 'Cross-site request refused: missing Origin');
  }
  if (!isOurOrigin(req, origin)) throw new AppError('FORBIDDEN', 'Cross-site request refused');
}

/** Fetch modes of a script's own request (fetch, XHR), as opposed to a navigation or an <img>. */
const SCRIPT_FETCH_MODES = new Set(['cors', 'same-origin']);

/**
 * A cookie-authenticated GET that writes (`writesOnGet`) only from our own page's script: a browser
 * sends no Origin on a GET, but it says where the request came from in Sec-Fetch-Site and what
 * made it in Sec-Fetch-Mode, which no page can set. A link, an image or a form on another site
 * is refused, and so is a link or an image planted on one of our own pages (same-origin, but a
 * navigation or `no-cors`), before anything is read.
 */
export function assertSameOriginGet(req: NextRequest) {
  const mode = req.headers.get('sec-fetch-mode');
  if (req.headers.get('sec-fetch-site') === 'same-origin' && (mode === null || SCRIPT_FETCH_MODES.has(mode))) return;
  throw new AppError('FORBIDDEN', 'This request changes state: with the session cookie it is accepted only from this site\'s own scripts (Sec-Fetch-Site: same-origin)');
}

/**
 * Sign-in (`sameOrigin: 'always'`), cookie or not (login CSRF): a browser's request carries an
 * Origin or Sec-Fetch-Site, and either must say it is ours. A client that sends neither is not a
 * browser acting for someone else, and is let through.
 */
export function assertNotCrossSite(req: NextRequest) {
  const origin = req.headers.get('origin');
  if (origin !== null && !isOurOrigin(req, origin)) throw new AppError('FORBIDDEN', 'Cross-site request refused');
  const site = req.headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin') throw new AppError('FORBIDDEN', `Cross-site request refused (Sec-Fetch-Site: ${site.slice(0, 40)})`);
}

/**
 * Path and query within their bounds (an over-long URL is 414, too many parameters 400), and
 * decodable: a segment or query component that is not percent-encoded UTF-8, or holds NUL, is 400
 * INVALID_PARAMETER (so is a request server.mjs flagged for it before Next could route it). The
 * refusal is logged with its request id.
 */
export function checkUrl(req: NextRequest, requestId?: string) {
  const { pathname, search, searchParams } = req.nextUrl;
  if (pathname.length + search.length > MAX_URL_LENGTH) {
    throw new AppError('URI_TOO_LONG', `The URL is longer than ${MAX_URL_LENGTH} characters`, { limit: MAX_URL_LENGTH });
  }
  const problem = req.headers.get(INVALID_TARGET_HEADER) ?? requestTargetProblem(pathname + search);
  if (problem) {
    console.warn(`[api] ${req.method} refused: the request target does not decode (${problem.slice(0, 120)}; request ${requestId ?? 'unknown'})`);
    throw new AppError('INVALID_PARAMETER', `The URL does not decode: ${problem.slice(0, 100)}. Send percent-encoded UTF-8 without NUL`);
  }
  let n = 0;
  for (const _ of searchParams.keys()) {
    if (++n > MAX_QUERY_PARAMS) {
      throw new AppError('INVALID_PARAMETER', `At most ${MAX_QUERY_PARAMS} query parameters`, { limit: MAX_QUERY_PARAMS });
    }
  }
}

/** The JSON body: bounded, typed, UTF-8, not too deep, parsed; undefined when none was sent; a malformed one is a 400. */
const readJsonBody = async (req: NextRequest, limit: number): Promise<unknown> => {
  const body = await readJson(req, limit);
  if (body.kind === 'malformed') throw body.error;
  return body.kind === 'json' ? body.value : undefined;
};

/** The multipart form, read within its limit (the file checks happen in the service). */
const readFormBody = async (req: NextRequest, limit: number): Promise<FormData> => {
  const contentType = req.headers.get('content-type');
  if (mediaTypeOf(contentType) !== 'multipart/form-data') {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Request body must be multipart/form-data');
  }
  const bytes = await readBodyBytes(req, limit);
  try {
    return await new Response(bytes as BodyInit, { headers: { 'content-type': contentType! } }).formData();
  } catch {
    throw new AppError('VALIDATION_ERROR', 'Request body is not a valid multipart/form-data form');
  }
};

/** The caller's rate-limit state as headers (every API answer carries them). */
export function rateHeaders(r: TLimitResult): Record<string, string> {
  return {
  'X-RateLimit-Limit': String(r.limit),
  'X-RateLimit-Remaining': String(r.remaining),
  'X-RateLimit-Reset': String(Math.ceil(r.reset / 1000)),
};
}

const errorResponse = (e: unknown, headers: Record<string, string>, requestId: string, endpoint: TEndpoint) => {
  if (isAppError(e)) return errorAnswer(e, headers);
  // A client that hung up mid-request (load generators at the end of a run, closed tabs) is not
  // a server fault worth a stack trace.
  if ((e as { code?: string } | null)?.code !== 'ECONNRESET') {
    console.error(`[api] ${endpoint.method} ${endpoint.path} failed (request ${requestId}):`, e);
  }
  return json(errorBody('INTERNAL_ERROR', 'Internal server error', { requestId }), 500, headers);
};

/** In tests: an answer that breaks the document becomes a 500 naming what is wrong. */
const checked = (endpoint: TEndpoint, res: NextResponse, payload: unknown, headers: Record<string, string>) => {
  const problem = responseCheck?.(endpoint, res.status, payload);
  if (!problem) return res;
  console.error(`[api] answer of ${endpoint.id} (${res.status}) breaks the OpenAPI document: ${problem}`);
  return json(errorBody('INTERNAL_ERROR', `Answer breaks the OpenAPI document: ${problem}`), 500, headers);
};

/**
 * What a route may add to its operation's call: `callerRead`, the operation's own read of its
 * caller, which brings the caller's row with it (lib/principals TCallerRead: one round trip less).
 */
export type TRouteOptions = { callerRead?: TCallerRead };

/**
 * Wraps a handler into a Next.js route handler for `endpoint`. Each answer's latency, from here
 * to its Response, is recorded per endpoint (lib/metrics: one O(1) call, no I/O).
 */
export function route<E extends TEndpoint>(endpoint: E, handler: THandler<E>, opts: TRouteOptions = {}) {
  const answer = answerWith(endpoint, handler, opts);
  return async (req: NextRequest, routeCtx?: TRouteContext): Promise<Response> => {
    const started = performance.now();
    let status = 500;
    try {
      const res = await answer(req, routeCtx);
      status = res.status;
      return res;
    } finally {
      observeRequest(endpoint, status, performance.now() - started);
    }
  };
}

function answerWith<E extends TEndpoint>(endpoint: E, handler: THandler<E>, opts: TRouteOptions) {
  return async (req: NextRequest, routeCtx?: TRouteContext): Promise<Response> => {
    const requestId = crypto.randomUUID();
    const cfg = env();
    const ip = clientIp(req.headers, cfg).slice(0, 64);
    let headers: Record<string, string> = { ...apiHeaders(), 'X-Request-Id': requestId };

    const credentials = readCredentials(req.headers, (n) => req.cookies.get(n)?.value);
    const readsBody = endpoint.multipart || (!SAFE_METHODS.has(req.method) && endpoint.readsBody !== false);
    const bodyLimit = endpoint.bodyLimit ?? DEFAULT_JSON_BODY_LIMIT;
    let form: FormData | undefined;
    const outcome = await runOperation(
      endpoint,
      {
        requestId,
        credentials,
        ip,
        rawParams: (await routeCtx?.params) ?? {},
        rawQuery: Object.fromEntries(req.nextUrl.searchParams),
        idempotencyKey: endpoint.idempotent ? req.headers.get(IDEMPOTENCY_HEADER) : undefined,
        callerRead: opts.callerRead,
        transportChecks: (claims) => {
          if (endpoint.sameOrigin === 'always') assertNotCrossSite(req);
          if (claims && credentials?.via === 'cookie') {
            if (!SAFE_METHODS.has(req.method)) assertSameOrigin(req);
            else if (endpoint.writesOnGet) assertSameOriginGet(req);
          }
          checkUrl(req, requestId);
        },
        readBody: !readsBody
          ? undefined
          : endpoint.multipart
            ? async () => {
                form = await readFormBody(req, bodyLimit);
                return Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === 'string'));
              }
            : () => readJsonBody(req, bodyLimit),
      },
      (ctx) =>
        handler({
          ...(ctx as Pick<THandlerContext<E>, 'caller' | 'principal' | 'params' | 'query' | 'body'>),
          req,
          form,
          requestId,
          ip,
        }),
    );
    if (outcome.limit) headers = { ...headers, ...rateHeaders(outcome.limit) };
    if (outcome.ok && outcome.replayed) headers[REPLAYED_HEADER] = 'true';

    if (!outcome.ok) {
      if (outcome.retryAfter) headers['Retry-After'] = String(outcome.retryAfter);
      const res = errorResponse(outcome.error, headers, requestId, endpoint);
      if (!cfg.isTest || !responseCheck) return res;
      return checked(endpoint, res, JSON.parse(await res.clone().text()), headers);
    }
    const result = outcome.value;
    if (result instanceof Response) {
      for (const [k, v] of Object.entries(headers)) if (!result.headers.has(k) || k.startsWith('X-')) result.headers.set(k, v);
      // A handler's own JSON answer (session cookies) is held to the document like any other.
      if (cfg.isTest && responseCheck && /json/.test(result.headers.get('content-type') ?? '')) {
        const payload: unknown = JSON.parse(await result.clone().text());
        const verdict = checked(endpoint, json(payload, result.status, headers), payload, headers);
        if (verdict.status !== result.status) return verdict;
      }
      return result;
    }
    const payload = endpoint.envelope === false ? result : { success: true, ...result };
    const res = json(payload, endpoint.status ?? 200, headers);
    return cfg.isTest ? checked(endpoint, res, payload, headers) : res;
  };
}
