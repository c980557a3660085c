/**
 * route(endpoint, handler): the one wrapper every API route goes through. In order, cheapest first:
 *   credentials → verified token claims (no database)
 *   rate limit (per user, or per client address when anonymous) → 429 RATE_LIMIT_EXCEEDED
 *   auth kind → 401 UNAUTHORIZED; cookie-authenticated writes must be same-origin (403)
 *   URL and query bounds → 414 URI_TOO_LONG / 400 INVALID_PARAMETER
 *   params, query → 400 INVALID_PARAMETER (control characters and lone surrogates included)
 *   then, under the route's deadline (lib/http/deadline.ts) → 503 DEADLINE_EXCEEDED:
 *     body: size first (413 PAYLOAD_TOO_LARGE, unread), media type (415), UTF-8, nesting depth,
 *     JSON, text, then the zod schema → 400 VALIDATION_ERROR (or a field's own code, such as
 *     INVALID_TRADE_SIZE for an amount out of range)
 *     the caller's user (provisioned on first sight) → 403 FORBIDDEN when banned or not an admin
 *     handler → JSON with success: true (in tests the answer is checked against the document)
 *   AppError → its status and code; a database data exception (SQLSTATE class 22: a value out of
 *   range or malformed) → 400; anything else → 500 INTERNAL_ERROR with a request id only.
 * Every answer carries X-RateLimit-Limit, -Remaining, -Reset (Unix seconds), X-Request-Id, and the
 * API's security and CORS headers (lib/http/security-headers.ts).
 */
import { NextResponse, type NextRequest } from 'next/server';
import { z } from 'zod';
import { getDb, postgresErrorCode } from '@/db/client';
import type { TTokenClaims } from '@/lib/auth/jwt';
import { principalFor, readCredentials, verifyCredentials, type TPrincipal } from '@/lib/auth/principal';
import { secretsEqual } from '@/lib/auth/secrets';
import type {
  TEndpoint,
  TEndpointBody,
  TEndpointParams,
  TEndpointQuery,
  TEndpointResult,
} from '@/lib/contracts/endpoint';
import { env } from '@/lib/env';
import { decodeUtf8, readBodyBytes } from './body';
import { clientIp } from './client-ip';
import { runWithDeadline } from './deadline';
import { AppError, errorBody, isAppError, type TErrorCode } from '@/lib/errors/app-error';
import {
  DEFAULT_DEADLINE_MS,
  DEFAULT_JSON_BODY_LIMIT,
  MAX_JSON_DEPTH,
  MAX_QUERY_PARAMS,
  MAX_URL_LENGTH,
  findBadText,
  isJsonMediaType,
  jsonDepthExceeds,
  mediaTypeOf,
} from './limits';
import { PENALTY_PAUSE_MS, checkRateLimit, notePenalty, penaltyUntil, type TLimitResult } from './rate-limit';
import { RATE_LIMITS } from './rate-limits';
import { apiHeaders } from './security-headers';

export type THandlerContext<E extends TEndpoint> = {
  req: NextRequest;
  principal: E['auth'] extends 'user' | 'admin' ? TPrincipal : TPrincipal | null;
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
export const setResponseCheck = (check: TResponseCheck | undefined) => {
  responseCheck = check;
};

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const issuesOf = (e: z.ZodError) =>
  e.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message, code: i.code }));

/** A cookie-authenticated write must come from our own origin, so no other site can act for a player. */
const assertSameOrigin = (req: NextRequest) => {
  const origin = req.headers.get('origin');
  if (!origin) {
    if (req.headers.get('sec-fetch-site') === 'same-origin') return;
    throw new AppError('FORBIDDEN', 'Cross-site request refused: missing Origin');
  }
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    throw new AppError('FORBIDDEN', 'Cross-site request refused: bad Origin');
  }
  const host = req.headers.get('x-forwarded-host') ?? req.headers.get('host');
  const publicHost = env().publicBaseUrl ? new URL(env().publicBaseUrl!).host : undefined;
  if (originHost !== host && originHost !== publicHost) {
    throw new AppError('FORBIDDEN', 'Cross-site request refused');
  }
};

/** Path and query within their bounds; an over-long URL is 414, too many parameters 400. */
const checkUrl = (req: NextRequest) => {
  const { pathname, search, searchParams } = req.nextUrl;
  if (pathname.length + search.length > MAX_URL_LENGTH) {
    throw new AppError('URI_TOO_LONG', `The URL is longer than ${MAX_URL_LENGTH} characters`, { limit: MAX_URL_LENGTH });
  }
  let n = 0;
  for (const _ of searchParams.keys()) {
    if (++n > MAX_QUERY_PARAMS) {
      throw new AppError('INVALID_PARAMETER', `At most ${MAX_QUERY_PARAMS} query parameters`, { limit: MAX_QUERY_PARAMS });
    }
  }
};

const assertText = (value: unknown, code: TErrorCode, what: string) => {
  const bad = findBadText(value);
  if (bad) throw new AppError(code, `Invalid ${what}: ${bad.path || 'value'} ${bad.reason}`, { path: bad.path });
};

const parseWith = <S extends z.ZodType | undefined>(schema: S, raw: unknown, what: 'path parameter' | 'query parameter') => {
  if (!schema) return raw;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new AppError('INVALID_PARAMETER', `Invalid ${what}`, { issues: issuesOf(parsed.error) });
  return parsed.data;
};

const isEmptyObject = (v: unknown) =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0;

/** The JSON body: bounded, typed, UTF-8, not too deep, parsed, every string acceptable text. */
const readJsonBody = async (req: NextRequest, limit: number): Promise<unknown> => {
  const bytes = await readBodyBytes(req, limit);
  if (bytes.byteLength === 0) return undefined;
  const type = mediaTypeOf(req.headers.get('content-type'));
  if (!isJsonMediaType(type)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Request body must be JSON (Content-Type: application/json), not ${type}`);
  }
  const text = decodeUtf8(bytes);
  if (text.trim() === '') return undefined;
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
    throw new AppError('VALIDATION_ERROR', `Request body nests deeper than ${MAX_JSON_DEPTH} levels`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new AppError('VALIDATION_ERROR', 'Request body must be valid JSON');
  }
  assertText(raw, 'VALIDATION_ERROR', 'request body');
  return raw;
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

const RANGE_ISSUES = new Set(['too_big', 'too_small', 'not_multiple_of']);

/**
 * The error for a body the schema refused: a field's own code when every issue is a range issue
 * of a field that declares one (fieldErrors), VALIDATION_ERROR otherwise.
 */
const bodyError = (endpoint: TEndpoint, e: z.ZodError) => {
  const issues = issuesOf(e);
  const fieldCodes = new Set(
    e.issues.map((i) => (RANGE_ISSUES.has(i.code) ? endpoint.fieldErrors?.[String(i.path[0] ?? '')] : undefined)),
  );
  const code = fieldCodes.size === 1 ? [...fieldCodes][0] : undefined;
  if (code) return new AppError(code, issues.map((i) => `${i.path}: ${i.message}`).join('; '), { issues });
  return new AppError('VALIDATION_ERROR', 'Invalid request body', { issues });
};

const rateHeaders = (r: TLimitResult): Record<string, string> => ({
  'X-RateLimit-Limit': String(r.limit),
  'X-RateLimit-Remaining': String(r.remaining),
  'X-RateLimit-Reset': String(Math.ceil(r.reset / 1000)),
});

/**
 * Answers below this size go out uncompressed: gzip of a couple of kilobytes costs the server
 * more CPU than it saves anyone (measured: 9% of a busy server's time on perps answers).
 * `no-transform` is what tells Next's compression to leave a response alone; API answers are
 * live data, so `no-store` as well.
 */
const COMPRESS_ABOVE_BYTES = 8 * 1024;

const json = (payload: unknown, status: number, headers: Record<string, string>) => {
  const text = JSON.stringify(payload);
  const h: Record<string, string> = { ...headers, 'content-type': 'application/json' };
  h['Cache-Control'] = text.length < COMPRESS_ABOVE_BYTES ? 'no-store, no-transform' : 'no-store';
  return new NextResponse(text, { status, headers: h });
};

/** SQLSTATE class 22, "data exception": a value the database cannot hold (numeric overflow, bad text). */
const isDataException = (code: string | undefined) => !!code && code.startsWith('22');
const QUERY_CANCELED = '57014'; // statement_timeout

const errorResponse = (e: unknown, headers: Record<string, string>, requestId: string, endpoint: TEndpoint) => {
  let err: AppError | undefined = isAppError(e) ? e : undefined;
  const sqlState = err ? undefined : postgresErrorCode(e);
  if (isDataException(sqlState)) {
    // A bound the schemas should have caught: the client's fault, but worth a log line to fix it.
    console.warn(`[api] ${endpoint.method} ${endpoint.path}: data exception ${sqlState} (request ${requestId})`);
    err = new AppError('VALIDATION_ERROR', 'A value is out of range or malformed', { requestId });
  } else if (sqlState === QUERY_CANCELED) {
    err = new AppError('DEADLINE_EXCEEDED', 'The request took too long and was abandoned; nothing was changed', { requestId });
  }
  if (err) {
    const h = err.headers ? { ...headers, ...err.headers } : headers;
    if (err.code === 'DEADLINE_EXCEEDED') h['Retry-After'] = '1';
    return json(errorBody(err.code, err.message, err.details), err.status, h);
  }
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

/** Wraps a handler into a Next.js route handler for `endpoint`. */
export const route = <E extends TEndpoint>(endpoint: E, handler: THandler<E>) => {
  return async (req: NextRequest, routeCtx?: TRouteContext): Promise<Response> => {
    const requestId = crypto.randomUUID();
    const cfg = env();
    const ip = clientIp(req.headers, cfg.trustProxy).slice(0, 64);
    let headers: Record<string, string> = { ...apiHeaders(), 'X-Request-Id': requestId };
    let identity: string | undefined;
    try {
      await getDb();

      // The token is verified (cheap: remembered until it expires), but the caller's user row is
      // loaded only once the request has passed every check that needs no database, so a flood
      // of bad input costs no database round trips.
      let claims: TTokenClaims | null = null;
      let cronOk = false;
      const cred = readCredentials(req.headers, (n) => req.cookies.get(n)?.value);
      if (endpoint.auth === 'cron') {
        cronOk = !!cred && cred.via === 'bearer' && secretsEqual(cred.token, cfg.cronSecret);
      } else {
        claims = await verifyCredentials(cred);
      }

      // One user, one counter: the token's subject names the user (users.auth_subject is unique).
      const rule = endpoint.rateLimit ?? (claims || cronOk ? 'authenticated' : 'public');
      identity = claims ? `s:${claims.subject}` : cronOk ? 'cron' : `ip:${ip}`;
      // A caller past its bad-input budget waits, and is refused unread, until its window ends.
      const penalty = penaltyUntil(identity);
      if (penalty !== undefined) {
        await new Promise((r) => setTimeout(r, PENALTY_PAUSE_MS));
        const badInput = RATE_LIMITS.badInput;
        headers = { ...headers, ...rateHeaders({ success: false, limit: badInput.limit, remaining: 0, reset: penalty }) };
        headers['Retry-After'] = String(Math.max(1, Math.ceil((penalty - Date.now()) / 1000)));
        throw new AppError('RATE_LIMIT_EXCEEDED', 'Too many malformed requests: fix them, then try again after the window', {
          limit: badInput.limit,
          reset: Math.ceil(penalty / 1000),
        });
      }
      const limited = await checkRateLimit(rule, identity);
      headers = { ...headers, ...rateHeaders(limited) };
      if (!limited.success) {
        headers['Retry-After'] = String(Math.max(1, Math.ceil((limited.reset - Date.now()) / 1000)));
        throw new AppError('RATE_LIMIT_EXCEEDED', 'Too many requests', {
          limit: limited.limit,
          reset: Math.ceil(limited.reset / 1000),
        });
      }

      if (endpoint.auth === 'cron' && !cronOk) throw new AppError('UNAUTHORIZED', 'Missing or invalid scheduler secret');
      // A client that sends a bearer token means to be that user: a bad one is refused everywhere,
      // public reads included, rather than answered as if anonymous. (An expired session cookie,
      // which the browser sends by itself, just reads public pages as a visitor.)
      if (endpoint.auth !== 'cron' && cred?.via === 'bearer' && !claims) {
        throw new AppError('UNAUTHORIZED', cred.token ? 'Invalid or expired token' : 'Authorization must be "Bearer <token>"');
      }
      if ((endpoint.auth === 'user' || endpoint.auth === 'admin') && !claims) {
        throw new AppError('UNAUTHORIZED', 'Missing or invalid token');
      }
      if (claims && cred?.via === 'cookie' && !SAFE_METHODS.has(req.method)) assertSameOrigin(req);

      checkUrl(req);
      const rawParams = (await routeCtx?.params) ?? {};
      assertText(rawParams, 'INVALID_PARAMETER', 'path parameter');
      const params = parseWith(endpoint.params, rawParams, 'path parameter');
      const rawQuery = Object.fromEntries(req.nextUrl.searchParams);
      assertText(rawQuery, 'INVALID_PARAMETER', 'query parameter');
      const query = parseWith(endpoint.query, rawQuery, 'query parameter');

      const result = await runWithDeadline(endpoint.deadlineMs ?? DEFAULT_DEADLINE_MS, async () => {
        let body: unknown = {};
        let form: FormData | undefined;
        if (endpoint.multipart) {
          form = await readFormBody(req, endpoint.bodyLimit ?? DEFAULT_JSON_BODY_LIMIT);
          body = Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === 'string'));
          assertText(body, 'VALIDATION_ERROR', 'form field');
        } else if (!SAFE_METHODS.has(req.method) && endpoint.readsBody !== false) {
          const raw = await readJsonBody(req, endpoint.bodyLimit ?? DEFAULT_JSON_BODY_LIMIT);
          // No body at all reads as {}; a JSON null is a body, and not an object.
          if (endpoint.body) body = raw === undefined ? {} : raw;
          else if (raw !== undefined && !isEmptyObject(raw)) {
            throw new AppError('VALIDATION_ERROR', 'This endpoint takes no request body (send none, or {})');
          }
        }
        if (endpoint.body) {
          const parsed = endpoint.body.safeParse(body);
          if (!parsed.success) throw bodyError(endpoint, parsed.error);
          body = parsed.data;
        }
        // Provisions the user on first sight; FORBIDDEN for a banned one.
        const principal = claims ? await principalFor(claims, cred!.via) : null;
        if (endpoint.auth === 'admin' && !principal?.isAdmin) throw new AppError('FORBIDDEN', 'Administrator only');
        return handler({
          req,
          principal: principal as THandlerContext<E>['principal'],
          params: params as TEndpointParams<E>,
          query: query as TEndpointQuery<E>,
          body: body as TEndpointBody<E>,
          form,
          requestId,
          ip,
        });
      });
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
    } catch (e) {
      const res = errorResponse(e, headers, requestId, endpoint);
      if (identity && res.status !== 500 && isAppError(e)) void notePenalty(identity, e.code);
      if (!cfg.isTest || !responseCheck) return res;
      return checked(endpoint, res, JSON.parse(await res.clone().text()), headers);
    }
  };
};
