/**
 * POST /api/mcp: the Model Context Protocol over Streamable HTTP, as lib/operations/README.md
 * says a transport plugs in. The request first, through the core's request-level step
 * (lib/operations/request.ts): a bearer credential only (an API key or an access token; a session
 * cookie is no MCP credential and is not read), 401 in the REST envelope with
 * `WWW-Authenticate: Bearer` without a valid one, the URL within the API's bounds, the body within
 * the JSON limit (413 unread, 415) read as every route reads it (lib/http/body.ts). Then the
 * protocol, in JSON-RPC: -32700 for a body that is not JSON, -32600 for one that is no JSON-RPC
 * message (HTTP 200, as A2A answers them), and the rest to the official SDK's Web-standard
 * Streamable HTTP transport, stateless and answering JSON (no SSE), with the parsed body, over a
 * server built for this request (server.ts). What the SDK refuses before any message runs (an
 * unsupported MCP-Protocol-Version, an initialize in a batch) is a refusal in the REST envelope
 * with the SDK's status and message. Every answer carries the API's headers, the request id and
 * the caller's X-RateLimit-* state after the last count; an answer in which no call reached the
 * operation core (initialize, tools/list, a notification, -32700, -32600) counts once, as REST
 * counts a request.
 */
import 'server-only';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { NextResponse, type NextRequest } from 'next/server';
import { RPC, rpcError, type TRpcResponse } from '@/lib/a2a/jsonrpc';
import { env } from '@/lib/env';
import { AppError, errorBody, isAppError, type TErrorCode } from '@/lib/errors/app-error';
import { errorAnswer, jsonAnswer, readJson } from '@/lib/http/body';
import { clientIp } from '@/lib/http/client-ip';
import { DEFAULT_JSON_BODY_LIMIT } from '@/lib/http/limits';
import { checkUrl, rateHeaders } from '@/lib/http/route';
import { apiHeaders } from '@/lib/http/security-headers';
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER, parseIdempotencyKey } from '@/lib/idempotency/key';
import { findBadText } from '@/lib/operations/bounds';
import type { TLimitResult } from '@/lib/operations/rate-limit';
import { countRequest, finishRequest, openRequest, refuseRequest, requestStep, requireCaller, type TRefusal, type TRequest } from '@/lib/operations/request';
import { readCredentials } from '@/lib/principals/principal';
import { publicOrigin } from '@/lib/system/public-origin';
import { createMcpServer, type TMcpInvocation } from './server';

/** The headers of the client's the SDK reads; the rest of the request is ours (the body already parsed). */
const PROTOCOL_HEADERS = ['mcp-protocol-version', 'mcp-session-id', 'last-event-id'];

/** The API's headers, the request id and the rate-limit state after the request's last count. */
const headersOf = (requestId: string, limit: TLimitResult | undefined): Record<string, string> => ({
  ...apiHeaders(),
  'X-Request-Id': requestId,
  ...(limit ? rateHeaders(limit) : {}),
});

/** A refusal of the whole request, in the REST envelope; a fault is a 500 with the request id only. */
const refusalAnswer = (requestId: string, refusal: TRefusal): Response => {
  const headers = headersOf(requestId, refusal.limit);
  if (refusal.retryAfter) headers['Retry-After'] = String(refusal.retryAfter);
  if (isAppError(refusal.error)) {
    if (refusal.error.code === 'UNAUTHORIZED') headers['WWW-Authenticate'] = 'Bearer';
    return errorAnswer(refusal.error, headers);
  }
  console.error(`[mcp] request ${requestId} failed:`, refusal.error);
  return jsonAnswer(errorBody('INTERNAL_ERROR', 'Internal server error', { requestId }), 500, headers);
};

/** An answer in the protocol before any call (-32700, -32600): the request counts; over the limit, 429 instead. */
const earlyRpcAnswer = async (request: TRequest, payload: TRpcResponse, badInput?: 'VALIDATION_ERROR'): Promise<Response> => {
  const over = await countRequest(request, { badInput });
  return over ? refusalAnswer(request.requestId, over) : jsonAnswer(payload, 200, headersOf(request.requestId, request.limit));
};

const isValidId = (v: unknown) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/** -32600 for a body that is not a JSON-RPC message or a non-empty array of them; null when it is. */
const invalidMessage = (body: unknown): TRpcResponse | null => {
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length === 0) return rpcError(null, RPC.INVALID_REQUEST, 'Invalid Request: an empty batch');
  if (messages.every((m) => JSONRPCMessageSchema.safeParse(m).success)) return null;
  const id = !Array.isArray(body) && typeof body === 'object' && body !== null && isValidId((body as { id?: unknown }).id) ? (body as { id: string | number }).id : null;
  return rpcError(id, RPC.INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 message');
};

/** A status the SDK refuses a request with, as our error code. */
const SDK_REFUSALS: Record<number, TErrorCode> = { 404: 'NOT_FOUND', 405: 'METHOD_NOT_ALLOWED', 413: 'PAYLOAD_TOO_LARGE', 415: 'UNSUPPORTED_MEDIA_TYPE' };

/** The SDK's refusal (a JSON-RPC error with an HTTP error status) as a typed error. */
const sdkRefusal = async (answer: Response): Promise<AppError> => {
  const body = (await answer.json().catch(() => null)) as { error?: { message?: unknown } } | null;
  const message = typeof body?.error?.message === 'string' ? body.error.message : `Refused (${answer.status})`;
  return new AppError(SDK_REFUSALS[answer.status] ?? 'VALIDATION_ERROR', message);
};

/**
 * The request as the SDK reads it: our answers are JSON whatever the client accepts (the SDK
 * refuses a client that does not list both JSON and SSE), the body's type already checked
 * (application/*+json included), and the protocol's own headers as sent.
 */
const sdkRequest = (req: NextRequest): Request => {
  const headers = new Headers({ accept: 'application/json, text/event-stream', 'content-type': 'application/json' });
  for (const name of PROTOCOL_HEADERS) {
    const value = req.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  return new Request(req.url, { method: 'POST', headers });
};

/** The SDK's answer with our headers: JSON as it came (no stream: `enableJsonResponse`), or none (202 for notifications). */
const protocolAnswer = async (answer: Response, inv: TMcpInvocation): Promise<Response> => {
  const headers = headersOf(inv.request.requestId, inv.request.limit);
  if (inv.replayed) headers[REPLAYED_HEADER] = 'true';
  const text = answer.body ? await answer.text() : '';
  if (text === '') return new NextResponse(null, { status: answer.status, headers });
  headers['content-type'] = 'application/json';
  // As jsonAnswer: live data, small answers uncompressed.
  headers['Cache-Control'] = text.length < 8 * 1024 ? 'no-store, no-transform' : 'no-store';
  return new NextResponse(text, { status: answer.status, headers });
};

export async function handleMcp(req: NextRequest): Promise<Response> {
  const requestId = crypto.randomUUID();
  let request: TRequest | undefined;
  try {
    // The bearer header only: a cookie is no MCP credential (the cookie reader sees none).
    const credentials = readCredentials(req.headers, () => undefined);
    request = await openRequest({ requestId, credentials, ip: clientIp(req.headers, env()).slice(0, 64) });
    const noCaller = await requireCaller(request, 'MCP needs a bearer credential: Authorization: Bearer <an API key (pm_…) or an access token>');
    if (noCaller) return refusalAnswer(requestId, noCaller);
    const read = await requestStep(request, () => {
      // The URL within the API's bounds, as on every route (the query itself means nothing here).
      checkUrl(req, requestId);
      const badQuery = findBadText(Object.fromEntries(req.nextUrl.searchParams));
      if (badQuery) throw new AppError('INVALID_PARAMETER', `Invalid query parameter ${badQuery.path}: ${badQuery.reason}`);
      return readJson(req, DEFAULT_JSON_BODY_LIMIT);
    });
    if (!read.ok) return refusalAnswer(requestId, read);
    if (read.value.kind !== 'json') return earlyRpcAnswer(request, rpcError(null, RPC.PARSE_ERROR, 'Parse error: the body is not JSON'), 'VALIDATION_ERROR');
    const body = read.value.value;
    // The Idempotency-Key applies to each money tool the request calls (server.ts).
    const key = await requestStep(request, () => parseIdempotencyKey(req.headers.get(IDEMPOTENCY_HEADER)));
    if (!key.ok) return refusalAnswer(requestId, key);
    const invalid = invalidMessage(body);
    if (invalid) return earlyRpcAnswer(request, invalid);

    const inv: TMcpInvocation = { request, origin: publicOrigin(req.headers, req.url), idempotencyKey: key.value ?? null, batch: Array.isArray(body), replayed: false };
    const server = createMcpServer(inv);
    // Stateless: a transport per request, no session id (lib/mcp/README.md).
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      const answer = await transport.handleRequest(sdkRequest(req), { parsedBody: body });
      if (answer.status >= 400) return refusalAnswer(requestId, await refuseRequest(request, await sdkRefusal(answer)));
      // No message reached the core (initialize, a list, a notification, unknown methods): the request counts once.
      await finishRequest(request);
      return await protocolAnswer(answer, inv);
    } finally {
      await server.close();
    }
  } catch (e) {
    return refusalAnswer(requestId, request ? await refuseRequest(request, e) : { ok: false, error: e });
  }
}
