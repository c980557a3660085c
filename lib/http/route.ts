/**
 * route(endpoint, handler): the one wrapper every API route goes through. In order:
 *   credentials → principal (provisioning on first sight)
 *   rate limit (per user, or per client address when anonymous) → 429 RATE_LIMIT_EXCEEDED
 *   auth kind → 401 UNAUTHORIZED / 403 FORBIDDEN; cookie-authenticated writes must be same-origin
 *   params, query → 400 INVALID_PARAMETER; body → 400 VALIDATION_ERROR (zod issues in details)
 *   handler → JSON with success: true (in tests the response is checked against its schema)
 *   AppError → its status and code; anything else → 500 INTERNAL_ERROR with a request id only.
 * Every answer carries X-RateLimit-Limit, -Remaining, -Reset (Unix seconds) and X-Request-Id.
 */
import { NextResponse, type NextRequest } from 'next/server';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { readCredentials, resolvePrincipal, type TPrincipal } from '@/lib/auth/principal';
import { secretsEqual } from '@/lib/auth/secrets';
import type {
  TEndpoint,
  TEndpointBody,
  TEndpointParams,
  TEndpointQuery,
  TEndpointResult,
} from '@/lib/contracts/endpoint';
import { env } from '@/lib/env';
import { clientIp } from './client-ip';
import { AppError, errorBody, isAppError } from './errors';
import { checkRateLimit, type TLimitResult } from './rate-limit';

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

const parseJsonBody = async (req: NextRequest): Promise<unknown> => {
  const text = await req.text();
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('VALIDATION_ERROR', 'Request body must be valid JSON');
  }
};

const rateHeaders = (r: TLimitResult, requestId: string): Record<string, string> => ({
  'X-RateLimit-Limit': String(r.limit),
  'X-RateLimit-Remaining': String(r.remaining),
  'X-RateLimit-Reset': String(Math.ceil(r.reset / 1000)),
  'X-Request-Id': requestId,
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
  if (text.length < COMPRESS_ABOVE_BYTES) h['Cache-Control'] = 'no-store, no-transform';
  return new NextResponse(text, { status, headers: h });
};

const errorResponse = (e: unknown, headers: Record<string, string>, requestId: string, endpoint: TEndpoint) => {
  if (isAppError(e)) {
    return json(errorBody(e.code, e.message, e.details), e.status, headers);
  }
  // A client that hung up mid-request (load generators at the end of a run, closed tabs) is not
  // a server fault worth a stack trace.
  if ((e as { code?: string } | null)?.code !== 'ECONNRESET') {
    console.error(`[api] ${endpoint.method} ${endpoint.path} failed (request ${requestId}):`, e);
  }
  return json(errorBody('INTERNAL_ERROR', 'Internal server error', { requestId }), 500, headers);
};

/** Wraps a handler into a Next.js route handler for `endpoint`. */
export const route = <E extends TEndpoint>(endpoint: E, handler: THandler<E>) => {
  return async (req: NextRequest, routeCtx?: TRouteContext): Promise<Response> => {
    const requestId = crypto.randomUUID();
    const cfg = env();
    const ip = clientIp(req.headers, cfg.trustProxy);
    let headers: Record<string, string> = { 'X-Request-Id': requestId };
    try {
      await getDb();

      let principal: TPrincipal | null = null;
      let authError: unknown;
      let cronOk = false;
      const cred = readCredentials(req.headers, (n) => req.cookies.get(n)?.value);
      if (endpoint.auth === 'cron') {
        cronOk = !!cred && cred.via === 'bearer' && secretsEqual(cred.token, cfg.cronSecret);
      } else if (cred) {
        try {
          principal = await resolvePrincipal(cred);
        } catch (e) {
          authError = e;
        }
      }

      const rule = endpoint.rateLimit ?? (principal || cronOk ? 'authenticated' : 'public');
      const identity = principal ? `u:${principal.userId}` : cronOk ? 'cron' : `ip:${ip}`;
      const limited = await checkRateLimit(rule, identity);
      headers = rateHeaders(limited, requestId);
      if (!limited.success) {
        headers['Retry-After'] = String(Math.max(1, Math.ceil((limited.reset - Date.now()) / 1000)));
        throw new AppError('RATE_LIMIT_EXCEEDED', 'Too many requests', {
          limit: limited.limit,
          reset: Math.ceil(limited.reset / 1000),
        });
      }

      if (authError) throw authError;
      if (endpoint.auth === 'cron' && !cronOk) throw new AppError('UNAUTHORIZED', 'Missing or invalid scheduler secret');
      if ((endpoint.auth === 'user' || endpoint.auth === 'admin') && !principal) {
        throw new AppError('UNAUTHORIZED', 'Missing or invalid token');
      }
      if (endpoint.auth === 'admin' && !principal?.isAdmin) throw new AppError('FORBIDDEN', 'Administrator only');
      if (principal?.via === 'cookie' && !SAFE_METHODS.has(req.method)) assertSameOrigin(req);

      const rawParams = (await routeCtx?.params) ?? {};
      const params = endpoint.params ? endpoint.params.safeParse(rawParams) : { success: true as const, data: rawParams };
      if (!params.success) {
        throw new AppError('INVALID_PARAMETER', 'Invalid path parameter', { issues: issuesOf(params.error) });
      }
      const rawQuery = Object.fromEntries(req.nextUrl.searchParams);
      const query = endpoint.query ? endpoint.query.safeParse(rawQuery) : { success: true as const, data: rawQuery };
      if (!query.success) {
        throw new AppError('INVALID_PARAMETER', 'Invalid query parameter', { issues: issuesOf(query.error) });
      }
      let body: unknown = {};
      let form: FormData | undefined;
      if (endpoint.multipart) {
        try {
          form = await req.formData();
        } catch {
          throw new AppError('VALIDATION_ERROR', 'Request body must be multipart/form-data');
        }
        body = Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === 'string'));
      } else if (endpoint.body) {
        body = await parseJsonBody(req);
      }
      if (endpoint.body) {
        const parsed = endpoint.body.safeParse(body);
        if (!parsed.success) {
          throw new AppError('VALIDATION_ERROR', 'Invalid request body', { issues: issuesOf(parsed.error) });
        }
        body = parsed.data;
      }

      const result = await handler({
        req,
        principal: principal as THandlerContext<E>['principal'],
        params: params.data as TEndpointParams<E>,
        query: query.data as TEndpointQuery<E>,
        body: body as TEndpointBody<E>,
        form,
        requestId,
        ip,
      });
      if (result instanceof Response) {
        for (const [k, v] of Object.entries(headers)) result.headers.set(k, v);
        return result;
      }
      const payload = endpoint.envelope === false ? result : { success: true, ...result };
      if (cfg.isTest) {
        // Contract drift fails loudly in tests instead of reaching clients.
        const checked = endpoint.response.safeParse(payload);
        if (!checked.success) {
          throw new Error(`Response of ${endpoint.id} breaks its contract: ${JSON.stringify(issuesOf(checked.error))}`);
        }
      }
      return json(payload, endpoint.status ?? 200, headers);
    } catch (e) {
      return errorResponse(e, headers, requestId, endpoint);
    }
  };
};
