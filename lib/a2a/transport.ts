/**
 * POST /api/a2a over HTTP: a bearer token first, or a session cookie from our own origin
 * (without a valid one, 401 in the REST envelope and no JSON-RPC work; a cross-site cookie 403), the body within the JSON limit (413 unread) and JSON (415), then
 * JSON-RPC 2.0: -32700 for text that is not JSON, -32600 for what is not a request, each call run
 * in order (lib/a2a/service/dispatch.ts), one answer per call with an id, none for
 * notifications, 204 when only notifications came. JSON-RPC errors answer HTTP 200. Every
 * answer carries the API's headers and the caller's X-RateLimit-* state after the last call; an
 * answer in which no call reached the operation core (401, 413, 415, -32700, -32600, an unknown
 * method) counts as one request, as REST counts it: under `public` by address without a valid
 * token, under `authenticated` by account with one.
 */
import 'server-only';
import { NextResponse, type NextRequest } from 'next/server';
import { readCredentials, verifyCredentials } from '@/lib/auth/principal';
import { env } from '@/lib/env';
import { AppError, errorBody, isAppError } from '@/lib/errors/app-error';
import { decodeUtf8, readBodyBytes } from '@/lib/http/body';
import { clientIp } from '@/lib/http/client-ip';
import { DEFAULT_JSON_BODY_LIMIT, MAX_JSON_DEPTH, isJsonMediaType, jsonDepthExceeds, mediaTypeOf } from '@/lib/http/limits';
import { assertSameOrigin, checkUrl, rateHeaders } from '@/lib/http/route';
import { findBadText } from '@/lib/operations/bounds';
import { checkRateLimit, notePenalty } from '@/lib/operations/rate-limit';
import { apiHeaders } from '@/lib/http/security-headers';
import { publicOrigin } from '@/lib/system/public-origin';
import { RPC, classifyBody, parseCall, rpcError, type TRpcResponse } from './jsonrpc';
import { runCall } from './service/dispatch';
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER, parseIdempotencyKey } from '@/lib/idempotency/key';

/** Calls in one batch at most; a longer batch is one -32600. */
export const MAX_BATCH = 50;

const respond = (payload: unknown, status: number, headers: Record<string, string>) =>
  status === 204
    ? new NextResponse(null, { status, headers })
    : new NextResponse(JSON.stringify(payload), { status, headers: { ...headers, 'content-type': 'application/json', 'Cache-Control': 'no-store' } });

/** The body as JSON, or the REST refusal (413, 415) the transport answers before any JSON-RPC; `parse` false for text that is not JSON. */
const readJson = async (req: NextRequest): Promise<{ parsed: true; value: unknown } | { parsed: false }> => {
  const bytes = await readBodyBytes(req, DEFAULT_JSON_BODY_LIMIT);
  const type = mediaTypeOf(req.headers.get('content-type'));
  if (bytes.byteLength > 0 && !isJsonMediaType(type)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Request body must be JSON (Content-Type: application/json), not ${type}`);
  }
  let text: string;
  try {
    text = decodeUtf8(bytes);
  } catch {
    return { parsed: false };
  }
  if (text.trim() === '' || jsonDepthExceeds(text, MAX_JSON_DEPTH)) return { parsed: false };
  try {
    return { parsed: true, value: JSON.parse(text) };
  } catch {
    return { parsed: false };
  }
};

export const handleA2a = async (req: NextRequest): Promise<Response> => {
  const requestId = crypto.randomUUID();
  let headers: Record<string, string> = { ...apiHeaders(), 'X-Request-Id': requestId };
  const ip = clientIp(req.headers, env()).slice(0, 64);
  let identity = `ip:${ip}`;
  let counted = false;
  /** Counts this HTTP request once when no call did (the refusals before any call). */
  const countRequest = async (rule: 'public' | 'authenticated') => {
    if (counted) return;
    counted = true;
    const r = await checkRateLimit(rule, identity);
    headers = { ...headers, ...rateHeaders(r) };
    if (!r.success) {
      throw new AppError('RATE_LIMIT_EXCEEDED', 'Too many requests', undefined, { 'Retry-After': String(Math.max(1, Math.ceil((r.reset - Date.now()) / 1000))) });
    }
  };
  try {
    // A bearer token (agents), or the signed-in player's session cookie (the developer page's
    // console) from our own origin only, as for every cookie-authenticated write.
    const credentials = readCredentials(req.headers, (n) => req.cookies.get(n)?.value);
    const claims = credentials ? await verifyCredentials(credentials) : null;
    if (!credentials || !claims) {
      await countRequest('public');
      throw new AppError('UNAUTHORIZED', credentials ? 'Invalid or expired token' : 'A2A needs a bearer token (a user token or an agent session token)');
    }
    identity = `s:${claims.subject}`;
    if (credentials.via === 'cookie') assertSameOrigin(req);
    // The URL within the API's bounds, as on every route (the query itself means nothing here).
    checkUrl(req, requestId);
    const badQuery = findBadText(Object.fromEntries(req.nextUrl.searchParams));
    if (badQuery) throw new AppError('INVALID_PARAMETER', `Invalid query parameter ${badQuery.path}: ${badQuery.reason}`);
    const body = await readJson(req);
    if (!body.parsed) {
      await countRequest('authenticated');
      void notePenalty(identity, 'VALIDATION_ERROR');
      return respond(rpcError(null, RPC.PARSE_ERROR, 'Parse error: the body is not JSON'), 200, headers);
    }

    const shape = classifyBody(body.value);
    const inv = {
      requestId,
      credentials,
      ip,
      origin: publicOrigin(req.headers, req.url),
      idempotencyKey: parseIdempotencyKey(req.headers.get(IDEMPOTENCY_HEADER)),
      batch: shape.kind === 'batch',
    };
    if (shape.kind === 'invalid') {
      await countRequest('authenticated');
      return respond(shape.response, 200, headers);
    }
    const raws = shape.kind === 'batch' ? shape.raws : [shape.raw];
    if (raws.length > MAX_BATCH) {
      await countRequest('authenticated');
      return respond(rpcError(null, RPC.INVALID_REQUEST, `Invalid Request: at most ${MAX_BATCH} calls in a batch`), 200, headers);
    }
    const answers: TRpcResponse[] = [];
    for (const raw of raws) {
      const parsed = parseCall(raw);
      if (!parsed.ok) {
        answers.push(parsed.response);
        continue;
      }
      const { response, limit, replayed } = await runCall(parsed.call, inv);
      if (replayed) headers = { ...headers, [REPLAYED_HEADER]: 'true' };
      if (limit) {
        headers = { ...headers, ...rateHeaders(limit) };
        counted = true;
      }
      if (!parsed.call.isNotification) answers.push(response);
    }
    // No call reached the core (each was malformed, unknown or unsupported): the request counts once.
    await countRequest('authenticated').catch(() => undefined);
    if (answers.length === 0) return respond(null, 204, headers);
    return respond(shape.kind === 'batch' ? answers : answers[0], 200, headers);
  } catch (e) {
    if (isAppError(e)) {
      // 413 and 415 are refused before any call: they count, and against the bad-input budget.
      if (e.code !== 'RATE_LIMIT_EXCEEDED') {
        await countRequest(identity.startsWith('s:') ? 'authenticated' : 'public').catch(() => undefined);
        void notePenalty(identity, e.code);
      }
      return respond(errorBody(e.code, e.message, e.details), e.status, { ...headers, ...e.headers });
    }
    console.error(`[a2a] request ${requestId} failed:`, e);
    return respond(errorBody('INTERNAL_ERROR', 'Internal server error', { requestId }), 500, headers);
  }
};
