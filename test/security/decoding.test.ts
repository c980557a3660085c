/**
 * The API never answers plain text (issue 29, items 8 and 12), against a production server on
 * each database: a path segment or a query that does not decode (an invalid UTF-8 byte, an
 * overlong encoding of "/", an encoded lone surrogate, an encoded NUL), on a route with a path
 * parameter and on an unknown /api path, answers 400 INVALID_PARAMETER in the JSON envelope with
 * the rate-limit headers and a request id; a header block over Node's 16 KB limit answers 431,
 * and a URL over it 414, both in the envelope, on a fresh connection and on a kept-alive one.
 * Each test names its own client address (the trusted proxy hop), so its malformed requests
 * count against a bad-input budget of its own.
 */
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import type { TJsonResponse } from '../ops/servers';
import { callRaw, clientAddress, expectRefused, newPlayer, targets, type TTarget } from './harness';

const BAD_ENCODINGS = ['%FF', '%C0%AF', '%ED%A0%80', 'a%00b'];

const get = (t: TTarget, pathAndQuery: string, address: string, headers: Record<string, string> = {}) =>
  callRaw(t, pathAndQuery, { method: 'GET', headers: { 'x-forwarded-for': address, ...headers } });

const expectEnvelopeWithHeaders = (res: Awaited<ReturnType<typeof get>>, status: number, code?: string) => {
  expectRefused(res, status, code);
  for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-request-id']) {
    expect(res.headers.get(h), `${h} on ${status} ${JSON.stringify(res.body)}`).toBeTruthy();
  }
};

/**
 * A GET through node:http, where the connection is ours to choose: `false` for a fresh one, or a
 * keep-alive agent whose one socket earlier requests already used. A reset is an answer too
 * (status 0), so the assertion says what came back instead of throwing.
 */
const rawGet = (t: TTarget, pathAndQuery: string, headers: Record<string, string>, agent: http.Agent | false) =>
  new Promise<TJsonResponse>((resolve) => {
    const url = new URL(t.base);
    const req = http.request({ host: url.hostname, port: url.port, path: pathAndQuery, headers: { 'x-forwarded-for': clientAddress(), ...headers }, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
        resolve({ status: res.statusCode ?? 0, body, headers: h });
      });
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ status: 0, body: `connection error: ${e.code ?? e.message}`, headers: new Headers() }));
    req.end();
  });

describe.each(targets())('requests that do not decode ($name)', (t) => {
  it('answers 400 INVALID_PARAMETER in the envelope, with rate-limit headers and a request id, for a bad path segment', async () => {
    const address = clientAddress();
    for (const bad of BAD_ENCODINGS) {
      expectEnvelopeWithHeaders(await get(t, `/api/users/${bad}/profile`, address), 400, 'INVALID_PARAMETER');
    }
  });

  it('answers 400 INVALID_PARAMETER in the envelope for a bad query, on a public and on an authenticated route', async () => {
    const address = clientAddress();
    for (const bad of BAD_ENCODINGS) {
      expectEnvelopeWithHeaders(await get(t, `/api/onboarding/check-username?username=${bad}`, address), 400, 'INVALID_PARAMETER');
    }
    expectEnvelopeWithHeaders(await get(t, '/api/markets/predictions?%FF=1', address), 400, 'INVALID_PARAMETER');
    const player = await newPlayer(t, 'decoding');
    expectEnvelopeWithHeaders(await get(t, '/api/users/search?q=%ED%A0%80', address, { authorization: `Bearer ${player.token}` }), 400, 'INVALID_PARAMETER');
  });

  it('answers 400 INVALID_PARAMETER in the envelope for an unknown /api path that does not decode', async () => {
    const address = clientAddress();
    expectEnvelopeWithHeaders(await get(t, '/api/%FF', address), 400, 'INVALID_PARAMETER');
    expectEnvelopeWithHeaders(await get(t, '/api/%ED%A0%80/x', address), 400, 'INVALID_PARAMETER');
    // A write method as well: the answer does not depend on the method.
    expectEnvelopeWithHeaders(
      await callRaw(t, '/api/posts/%C0%AF/like', { method: 'POST', headers: { 'x-forwarded-for': address, 'content-type': 'application/json' }, body: '{}' }),
      400,
      'INVALID_PARAMETER',
    );
  });

  /**
   * What Node's own parser refuses (over its 16 KB header limit) never reaches Next, so the answer
   * comes from server.mjs: on a fresh connection, and on a kept-alive one that already carried an
   * answer (what every browser and HTTP client reuses), it is the envelope, not a reset.
   */
  it('answers a header block over 16 KB with 431 in the envelope, on a fresh and on a kept-alive connection', async () => {
    const padding = { 'x-padding': 'a'.repeat(20_000) };
    expectRefused(await rawGet(t, '/api/health', padding, false), 431);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect((await rawGet(t, '/api/health', {}, agent)).status).toBe(200);
      expectRefused(await rawGet(t, '/api/health', padding, agent), 431);
    } finally {
      agent.destroy();
    }
  });

  it('answers a URL over the limits with 414 in the envelope', async () => {
    const address = clientAddress();
    // Over the API's own bound (8 KiB), within Node's.
    expectEnvelopeWithHeaders(await get(t, `/api/users/${'a'.repeat(9_000)}/profile`, address), 414, 'URI_TOO_LONG');
    // Over Node's 16 KB header limit: the server itself answers, still in the envelope.
    const longUrl = `/api/health?padding=${'a'.repeat(20_000)}`;
    expectRefused(await rawGet(t, longUrl, {}, false), 414);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect((await rawGet(t, '/api/health', {}, agent)).status).toBe(200);
      expectRefused(await rawGet(t, longUrl, {}, agent), 414);
    } finally {
      agent.destroy();
    }
  });
});
