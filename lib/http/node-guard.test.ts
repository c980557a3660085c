/**
 * server.mjs's guard, on a bare node:http server (no Next build): an /api request whose path or
 * query does not decode is pointed at the API's JSON catch-all with its reason (never at Next's
 * router, which answers it in plain text), a client cannot forge that reason or its socket
 * address, and what Node's parser refuses (headers over 16 KB, an over-long request line, a
 * request that is not HTTP) is answered in the JSON error envelope with Connection: close.
 */
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '@/lib/errors/app-error';
import { SOCKET_ADDRESS_HEADER as CLIENT_IP_SOCKET_HEADER } from './client-ip';
import { MAX_URL_LENGTH as LIMITS_MAX_URL_LENGTH } from './limits';
import {
  INVALID_TARGET_HEADER,
  INVALID_TARGET_PATH,
  MAX_URL_LENGTH,
  SOCKET_ADDRESS_HEADER,
  answerClientError,
  clientErrorAnswer,
  guardRequest,
  requestTargetProblem,
} from './node-guard.mjs';

describe('requestTargetProblem', () => {
  it('accepts what decodes: plain paths, escapes of UTF-8, a literal % as %25, + in queries', () => {
    for (const target of ['/api/health', '/api/users/by-username/a%25b%20c', '/api/x/%E2%82%AC?q=%F0%9F%98%80&a=b+c&flag', '/api/x?', '/api/x?=&&', '/']) {
      expect(requestTargetProblem(target), target).toBeNull();
    }
  });

  it('refuses malformed escapes, invalid UTF-8, encoded surrogates and NUL, in the path and in the query', () => {
    for (const bad of ['%FF', '%C0%AF', '%ED%A0%80', '%ED%B0%80', '%00', '%', '%E2%82', '%G1', 'a%0', '%F4%90%80%80']) {
      expect(requestTargetProblem(`/api/users/${bad}`), `path ${bad}`).toMatch(/^a path segment holds/);
      expect(requestTargetProblem(`/api/users/x?q=${bad}`), `query value ${bad}`).toMatch(/^the query holds/);
      expect(requestTargetProblem(`/api/users/x?${bad}=1`), `query name ${bad}`).toMatch(/^the query holds/);
    }
  });
});

describe('clientErrorAnswer', () => {
  it('maps what Node refuses to the codes of lib/errors/app-error.ts, with their statuses', () => {
    const line = (n: number) => Buffer.from(`GET /${'a'.repeat(n)} HTTP/1.1\r\nHost: x\r\n`);
    const cases = [
      [{ code: 'HPE_HEADER_OVERFLOW', rawPacket: Buffer.from('GET / HTTP/1.1\r\nX-Big: aaaa') }, 431],
      [{ code: 'HPE_HEADER_OVERFLOW', rawPacket: line(MAX_URL_LENGTH + 10) }, 414],
      [{ code: 'HPE_HEADER_OVERFLOW', rawPacket: Buffer.from(`GET /${'a'.repeat(MAX_URL_LENGTH + 10)}`) }, 414],
      [{ code: 'HPE_HEADER_OVERFLOW', rawPacket: line(100) }, 431],
      [{ code: 'HPE_HEADER_OVERFLOW' }, 431],
      [{ code: 'HPE_CHUNK_EXTENSIONS_OVERFLOW' }, 413],
      [{ code: 'ERR_HTTP_REQUEST_TIMEOUT' }, 408],
      [{ code: 'HPE_INVALID_METHOD' }, 400],
      [undefined, 400],
    ] as const;
    for (const [err, status] of cases) {
      const answer = clientErrorAnswer(err);
      expect(answer.status, JSON.stringify(err?.code)).toBe(status);
      expect(ERROR_STATUS[answer.code as keyof typeof ERROR_STATUS], answer.code).toBe(status);
    }
  });

  it('shares its constants with the TypeScript side', () => {
    expect(MAX_URL_LENGTH).toBe(LIMITS_MAX_URL_LENGTH);
    expect(SOCKET_ADDRESS_HEADER).toBe(CLIENT_IP_SOCKET_HEADER);
  });

  it('says nothing to a peer that is gone, or mid-way through another answer', () => {
    let ended = false;
    let destroyed = 0;
    const socket = (writable: boolean, headerSent: boolean) => ({
      writable,
      _httpMessage: headerSent ? { _headerSent: true } : null,
      destroy: () => void destroyed++,
      end: () => void (ended = true),
    });
    answerClientError({ code: 'ECONNRESET' }, socket(true, false));
    answerClientError({ code: 'HPE_INVALID_METHOD' }, socket(false, false));
    answerClientError({ code: 'HPE_INVALID_METHOD' }, socket(true, true));
    expect(ended).toBe(false);
    expect(destroyed).toBe(3);
  });
});

/** What the request handler behind the guard saw. */
type TSeen = { url: string; headers: Record<string, string | string[] | undefined> };

describe('a bare node:http server with the guard', () => {
  let server: Server;
  let port: number;
  const seen: TSeen[] = [];
  const logged: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      guardRequest(req);
      seen.push({ url: req.url ?? '', headers: { ...req.headers } });
      res.setHeader('content-type', 'application/json');
      res.end('{"ok":true}');
    }).on('clientError', (err, socket) => answerClientError(err, socket, { warn: (m: string) => void logged.push(m) }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** Sends raw bytes, reads until the server closes (or answers a keep-alive request), parses the answer. */
  const raw = (text: string) =>
    new Promise<{ status: number; headers: Record<string, string>; body: string }>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let data = '';
      const done = () => {
        const [head = '', ...rest] = data.split('\r\n\r\n');
        const [statusLine = '', ...lines] = head.split('\r\n');
        const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
        resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
      };
      socket.on('data', (d) => {
        data += d.toString('latin1');
        if (/\r\n\r\n\{"ok":true\}$/.test(data)) socket.end();
      });
      socket.on('end', done);
      socket.on('error', (e) => (data ? done() : reject(e)));
      socket.write(text);
    });

  const get = (target: string, extra = '') => raw(`GET ${target} HTTP/1.1\r\nHost: localhost\r\n${extra}Connection: close\r\n\r\n`);

  it('points an /api request that does not decode at the catch-all, with its reason; the rest pass untouched', async () => {
    for (const target of ['/api/users/%FF', '/api/users/by-username/%C0%AF/follow', '/api/posts/%ED%A0%80', '/api/x/%00', '/api/health?x=%FF', '/api/nope/%']) {
      seen.length = 0;
      expect((await get(target)).status, target).toBe(200);
      expect(seen[0]?.url, target).toBe(INVALID_TARGET_PATH);
      expect(seen[0]?.headers[INVALID_TARGET_HEADER], target).toMatch(/holds/);
    }
    for (const target of ['/api/users/by-username/a%25b', '/api/health?x=%E2%82%AC', '/markets/%FF', '/apix/%FF']) {
      seen.length = 0;
      await get(target);
      expect(seen[0]?.url, target).toBe(target);
      expect(seen[0]?.headers[INVALID_TARGET_HEADER], target).toBeUndefined();
    }
    // Absolute-form request targets are read by their path.
    seen.length = 0;
    await get('http://localhost/api/users/%FF');
    expect(seen[0]?.url).toBe(INVALID_TARGET_PATH);
  });

  it('a client cannot send the reason header or its own socket address', async () => {
    seen.length = 0;
    await get('/api/health', `${INVALID_TARGET_HEADER}: forged\r\n${SOCKET_ADDRESS_HEADER}: 1.2.3.4\r\n`);
    expect(seen[0]?.headers[INVALID_TARGET_HEADER]).toBeUndefined();
    expect(seen[0]?.headers[SOCKET_ADDRESS_HEADER]).toBe('127.0.0.1');
  });

  const expectEnvelope = (res: { status: number; headers: Record<string, string>; body: string }, status: number, code: string) => {
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['connection']).toBe('close');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const body = JSON.parse(res.body) as { success: boolean; error: { code: string; message: string; details: { requestId: string } } };
    expect(body).toMatchObject({ success: false, error: { code } });
    expect(body.error.details.requestId).toBe(res.headers['x-request-id']);
    expect(logged.some((l) => l.includes(body.error.details.requestId)), 'logged with its request id').toBe(true);
  };

  it('431 in the envelope for headers over 16 KB', async () => {
    expectEnvelope(await get('/api/health', `X-Big: ${'a'.repeat(17 * 1024)}\r\n`), 431, 'REQUEST_HEADER_FIELDS_TOO_LARGE');
  });

  it('431 in the envelope on a kept-alive connection that already carried an answer', async () => {
    // Browsers and HTTP clients reuse connections: the socket has written bytes before the
    // oversized request arrives, and that must not silence the answer.
    const first = 'GET /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n';
    const second = `GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\nConnection: close\r\n\r\n`;
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let data = '';
      socket.on('data', (d) => {
        data += d.toString('latin1');
        if (data.endsWith('{"ok":true}') && !data.includes('REQUEST_HEADER')) socket.write(second);
      });
      socket.on('end', () => resolve(data));
      socket.on('error', (e) => (data.includes('REQUEST_HEADER') ? resolve(data) : reject(e)));
      socket.write(first);
    });
    const answer = text.slice(text.indexOf('{"ok":true}') + '{"ok":true}'.length);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).toContain('"code":"REQUEST_HEADER_FIELDS_TOO_LARGE"');
  });

  it('414 in the envelope for a request line over the limit', async () => {
    expectEnvelope(await get(`/api/health?pad=${'a'.repeat(17 * 1024)}`), 414, 'URI_TOO_LONG');
  });

  it('400 in the envelope for a request that is not HTTP', async () => {
    expectEnvelope(await raw('HELLO THERE\r\n\r\n'), 400, 'BAD_REQUEST');
  });
});
