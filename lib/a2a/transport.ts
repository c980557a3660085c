/**
 * POST /api/a2a over HTTP: the JSON-RPC 2.0 framing of A2A over the operation core, as
 * lib/operations/README.md says a transport plugs in. The request first, through the core's
 * request-level step (lib/operations/request.ts), which verifies the credentials once, counts
 * the request and notes malformed input: a bearer token, or a session cookie from our own origin
 * (without a valid one, 401 in the REST envelope and no JSON-RPC work; a cross-site cookie 403),
 * the URL within the API's bounds, the body within the JSON limit (413 unread) and JSON (415),
 * read as every route reads it (lib/http/body.ts). Then JSON-RPC 2.0: -32700 for text that is not
 * JSON, -32600 for what is not a request, each call run in order (service/dispatch.ts), one
 * answer per call with an id, none for notifications, 204 when only notifications came. JSON-RPC
 * errors answer HTTP 200. Every answer carries the API's headers and the caller's X-RateLimit-*
 * state after the last count; an answer in which no call reached the operation core (401, 413,
 * 415, -32700, -32600, an unknown method) counts as one request, as REST counts it: under
 * `public` by address without a valid token, under `authenticated` by account with one.
 *
 * A2A versions: the `A2A-Version` header names the one a request speaks (none: 0.3, as the 1.0
 * specification says); 1.0 and 0.3 are served side by side, each method by its name, so a version
 * this agent does not speak answers -32009 (VersionNotSupported) for each call and runs nothing.
 * A single call of a 1.0 streaming method (SendStreamingMessage) that succeeds answers
 * text/event-stream: one `data:` event, a JSON-RPC response carrying the StreamResponse, and the
 * stream ends (every task is finished at once). Its failure is a plain JSON-RPC error, which the
 * 1.0 SDK reads as well.
 */
import 'server-only';
import { NextResponse, type NextRequest } from 'next/server';
import { env } from '@/lib/env';
import { AppError, errorBody, isAppError } from '@/lib/errors/app-error';
import { errorAnswer, jsonAnswer, readJson } from '@/lib/http/body';
import { clientIp } from '@/lib/http/client-ip';
import { DEFAULT_JSON_BODY_LIMIT } from '@/lib/http/limits';
import { assertSameOrigin, checkUrl, rateHeaders } from '@/lib/http/route';
import { apiHeaders } from '@/lib/http/security-headers';
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER, parseIdempotencyKey } from '@/lib/idempotency/key';
import { findBadText } from '@/lib/operations/bounds';
import type { TLimitResult } from '@/lib/operations/rate-limit';
import { countRequest, finishRequest, openRequest, refuseRequest, requestStep, requireCaller, type TRefusal, type TRequest } from '@/lib/operations/request';
import { readCredentials } from '@/lib/principals/principal';
import { publicOrigin } from '@/lib/system/public-origin';
import { RPC, classifyBody, parseCall, rpcError, type TRpcResponse } from './jsonrpc';
import { STREAMING_METHODS, runCall } from './service/dispatch';
import { A2A_VERSION_HEADER, negotiateVersion } from './v1/shapes';

/** Calls in one batch at most; a longer batch is one -32600. */
export const MAX_BATCH = 50;

/** The API's headers, the request id and the rate-limit state after the request's last count. */
const headersOf = (requestId: string, limit: TLimitResult | undefined): Record<string, string> => ({
  ...apiHeaders(),
  'X-Request-Id': requestId,
  ...(limit ? rateHeaders(limit) : {}),
});

/** A JSON-RPC answer (HTTP 200), or 204 when it holds nothing (only notifications came). */
const rpcAnswer = (request: TRequest, payload: TRpcResponse | TRpcResponse[] | null, replayed = false): Response => {
  const headers = headersOf(request.requestId, request.limit);
  if (replayed) headers[REPLAYED_HEADER] = 'true';
  return payload === null ? new NextResponse(null, { status: 204, headers }) : jsonAnswer(payload, 200, headers);
};

/** A 1.0 stream: each answer one SSE event (`data:` a JSON-RPC response), then the end. */
const sseAnswer = (request: TRequest, events: TRpcResponse[]): Response => {
  const headers = headersOf(request.requestId, request.limit);
  const body = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');
  return new NextResponse(body, { status: 200, headers: { ...headers, 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' } });
};

/** A refusal of the whole request, in the REST envelope; a fault is a 500 with the request id only. */
const refusalAnswer = (requestId: string, refusal: TRefusal): Response => {
  const headers = headersOf(requestId, refusal.limit);
  if (refusal.retryAfter) headers['Retry-After'] = String(refusal.retryAfter);
  if (isAppError(refusal.error)) return errorAnswer(refusal.error, headers);
  console.error(`[a2a] request ${requestId} failed:`, refusal.error);
  return jsonAnswer(errorBody('INTERNAL_ERROR', 'Internal server error', { requestId }), 500, headers);
};

/** An answer in the protocol before any call (-32700, -32600): the request counts; over the limit, 429 instead. */
const earlyRpcAnswer = async (request: TRequest, payload: TRpcResponse, badInput?: 'VALIDATION_ERROR'): Promise<Response> => {
  const over = await countRequest(request, { badInput });
  return over ? refusalAnswer(request.requestId, over) : rpcAnswer(request, payload);
};

export async function handleA2a(req: NextRequest): Promise<Response> {
  const requestId = crypto.randomUUID();
  let request: TRequest | undefined;
  try {
    // A bearer token (agents), or the signed-in player's session cookie (the developer page's
    // console) from our own origin only, as for every cookie-authenticated write.
    const credentials = readCredentials(req.headers, (n) => req.cookies.get(n)?.value);
    request = await openRequest({ requestId, credentials, ip: clientIp(req.headers, env()).slice(0, 64) });
    const noCaller = await requireCaller(request, 'A2A needs a bearer token (a user token or an agent session token)');
    if (noCaller) return refusalAnswer(requestId, noCaller);
    const read = await requestStep(request, () => {
      if (credentials?.via === 'cookie') assertSameOrigin(req);
      // The URL within the API's bounds, as on every route (the query itself means nothing here).
      checkUrl(req, requestId);
      const badQuery = findBadText(Object.fromEntries(req.nextUrl.searchParams));
      if (badQuery) throw new AppError('INVALID_PARAMETER', `Invalid query parameter ${badQuery.path}: ${badQuery.reason}`);
      return readJson(req, DEFAULT_JSON_BODY_LIMIT);
    });
    if (!read.ok) return refusalAnswer(requestId, read);
    if (read.value.kind !== 'json') return earlyRpcAnswer(request, rpcError(null, RPC.PARSE_ERROR, 'Parse error: the body is not JSON'), 'VALIDATION_ERROR');

    const shape = classifyBody(read.value.value);
    // The Idempotency-Key applies to each money method the request carries (service/dispatch.ts).
    const key = await requestStep(request, () => parseIdempotencyKey(req.headers.get(IDEMPOTENCY_HEADER)));
    if (!key.ok) return refusalAnswer(requestId, key);
    if (shape.kind === 'invalid') return earlyRpcAnswer(request, shape.response);
    const raws = shape.kind === 'batch' ? shape.raws : [shape.raw];
    if (raws.length > MAX_BATCH) return earlyRpcAnswer(request, rpcError(null, RPC.INVALID_REQUEST, `Invalid Request: at most ${MAX_BATCH} calls in a batch`));

    const inv = { request, origin: publicOrigin(req.headers, req.url), idempotencyKey: key.value, batch: shape.kind === 'batch' };
    const asked = req.headers.get(A2A_VERSION_HEADER);
    const version = negotiateVersion(asked);
    const answers: TRpcResponse[] = [];
    let replayed = false;
    let stream = false;
    for (const raw of raws) {
      const parsed = parseCall(raw);
      if (!parsed.ok) {
        answers.push(parsed.response);
        continue;
      }
      if (!version) {
        const message = `A2A version ${JSON.stringify(asked!.slice(0, 20))} is not supported: send ${A2A_VERSION_HEADER}: 1.0 (or 0.3, or none)`;
        if (!parsed.call.isNotification) answers.push(rpcError(parsed.call.id, RPC.VERSION_NOT_SUPPORTED, message, { supported: ['1.0', '0.3'] }));
        continue;
      }
      const done = await runCall(parsed.call, inv);
      if (done.replayed) replayed = true;
      if (!parsed.call.isNotification) answers.push(done.response);
      stream = shape.kind === 'single' && !parsed.call.isNotification && STREAMING_METHODS.has(parsed.call.method) && 'result' in done.response;
    }
    // No call reached the core (each was malformed, unknown or unsupported): the request counts once.
    await finishRequest(request);
    if (stream) return sseAnswer(request, answers);
    return rpcAnswer(request, answers.length === 0 ? null : shape.kind === 'batch' ? answers : answers[0]!, replayed);
  } catch (e) {
    return refusalAnswer(requestId, request ? await refuseRequest(request, e) : { ok: false, error: e });
  }
}
