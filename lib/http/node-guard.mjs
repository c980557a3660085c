/**
 * What the Node HTTP server (server.mjs) does before Next.js sees a request, in plain JavaScript
 * so that server.mjs can load it without a build and a bare node:http server can test it.
 *
 *   guardRequest(req): writes the socket address into X-Client-Socket-Address (over anything the
 *     client sent: route handlers cannot see the socket, and Next keeps a client-sent
 *     X-Forwarded-For), and, for a request under /api whose path or query does not decode (bad
 *     percent-encoding, an encoded lone surrogate or NUL), points it at the API's catch-all route
 *     with the reason in X-Invalid-Request-Target. Next's router would otherwise answer such a
 *     path with a plain-text 500 (an HTML 400 in development) before any route ran; the route
 *     wrapper (lib/http/route.ts checkUrl) answers it 400 INVALID_PARAMETER in the envelope, with
 *     the rate-limit headers, and logs it with its request id.
 *   answerClientError(err, socket): the server's 'clientError' event. What Node would answer with
 *     a bare status line (a header section over its 16 KB limit: 431; the request line itself
 *     too long: 414; chunk extensions too large: 413; a timeout: 408; not HTTP: 400) is answered
 *     in the API's JSON error envelope, with Connection: close.
 *
 * requestTargetProblem(target) is the decoding rule itself, shared with the route wrapper.
 * No imports: globals only (crypto.randomUUID, console).
 */

/** Set by guardRequest (and deleted from what a client sends): why the request target was refused. */
export const INVALID_TARGET_HEADER = 'x-invalid-request-target';
/** Where an undecodable /api request is sent: no route serves it, so the JSON catch-all answers. */
export const INVALID_TARGET_PATH = '/api/_invalid-request-target';
/** Where route handlers read the socket address (lib/http/client-ip.ts). */
export const SOCKET_ADDRESS_HEADER = 'x-client-socket-address';
/** lib/http/limits.ts MAX_URL_LENGTH: a request line longer than this is a 414, not a 431. */
export const MAX_URL_LENGTH = 8 * 1024;

/** Why one path segment or query component does not decode, or null. */
const componentProblem = (raw) => {
  if (!raw.includes('%')) return raw.includes('\u0000') ? 'a NUL character' : null;
  let text;
  try {
    // Throws on a malformed escape, invalid UTF-8 (%FF, the overlong %C0%AF) and an encoded
    // surrogate (%ED%A0%80): none of them is text.
    text = decodeURIComponent(raw);
  } catch {
    return 'malformed percent-encoding or UTF-8 (an encoded surrogate included)';
  }
  return text.includes('\u0000') ? 'an encoded NUL' : null;
};

/**
 * Why a request target (path and query, as received) does not decode, or null when it does.
 * Each path segment and each query name and value must be valid percent-encoded UTF-8 without NUL.
 */
export const requestTargetProblem = (target) => {
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  const query = q < 0 ? '' : target.slice(q + 1);
  for (const segment of path.split('/')) {
    const problem = componentProblem(segment);
    if (problem) return `a path segment holds ${problem}`;
  }
  if (query) {
    for (const pair of query.split('&')) {
      for (const part of pair.split('=')) {
        const problem = componentProblem(part.replace(/\+/g, ' '));
        if (problem) return `the query holds ${problem}`;
      }
    }
  }
  return null;
};

/** The path and query of a request line's target (origin-form as is; absolute-form without scheme and host). */
const originForm = (url) => {
  const m = /^[a-z][a-z0-9+.-]*:\/\/[^/?]*/i.exec(url);
  return m ? url.slice(m[0].length) || '/' : url;
};

const isApiPath = (target) => target === '/api' || target.startsWith('/api/') || target.startsWith('/api?');

/** Runs on every request before Next.js handles it (see the module comment). */
export const guardRequest = (req) => {
  req.headers[SOCKET_ADDRESS_HEADER] = req.socket?.remoteAddress ?? '';
  delete req.headers[INVALID_TARGET_HEADER];
  const target = originForm(req.url ?? '/');
  if (!isApiPath(target)) return;
  const problem = requestTargetProblem(target);
  if (!problem) return;
  req.headers[INVALID_TARGET_HEADER] = problem;
  req.url = INVALID_TARGET_PATH;
};

const REASONS = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  431: 'Request Header Fields Too Large',
};

/** Whether the chunk the parser failed on begins with a request line longer than MAX_URL_LENGTH. */
const requestLineTooLong = (packet) => {
  if (!packet || packet.length === 0) return false;
  if (!/^[A-Z]+ \S/.test(packet.subarray(0, 32).toString('latin1'))) return false;
  const eol = packet.indexOf(10);
  return (eol < 0 ? packet.length : eol) > MAX_URL_LENGTH;
};

/** The status, code and message for a parse error of Node's HTTP server (lib/errors/app-error.ts codes). */
export const clientErrorAnswer = (err) => {
  switch (err?.code) {
    case 'HPE_HEADER_OVERFLOW':
      return requestLineTooLong(err.rawPacket)
        ? { status: 414, code: 'URI_TOO_LONG', message: `The URL is longer than ${MAX_URL_LENGTH} characters` }
        : { status: 431, code: 'REQUEST_HEADER_FIELDS_TOO_LARGE', message: 'The request headers are larger than the server accepts (16 KiB in all)' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'Chunk extensions are larger than the server accepts' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, code: 'REQUEST_TIMEOUT', message: 'The request was not received in time' };
    default:
      return { status: 400, code: 'BAD_REQUEST', message: 'The request is not valid HTTP/1.1' };
  }
};

/** Answers a request Node's parser refused, in the error envelope, and closes the connection. */
export const answerClientError = (err, socket, log = console) => {
  // Nothing can be said to a peer that is gone, or mid-way through another answer. A kept-alive
  // connection that already carried whole answers can still be answered (Node's own rule: only a
  // response whose headers are out stops it), so bytesWritten is no guide.
  if (err?.code === 'ECONNRESET' || !socket.writable || socket._httpMessage?._headerSent) {
    socket.destroy();
    return;
  }
  const { status, code, message } = clientErrorAnswer(err);
  const requestId = crypto.randomUUID();
  const body = JSON.stringify({ success: false, error: { code, message, details: { requestId } } });
  log.warn(`[http] ${status} ${code} to ${socket.remoteAddress ?? 'unknown'} (${err?.code ?? 'no code'}, request ${requestId})`);
  socket.end(
    [
      `HTTP/1.1 ${status} ${REASONS[status]}`,
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Cache-Control: no-store',
      'X-Content-Type-Options: nosniff',
      'Access-Control-Allow-Origin: *',
      `X-Request-Id: ${requestId}`,
      'Connection: close',
      '',
      body,
    ].join('\r\n'),
  );
};
