/**
 * The request-level step (./request.ts) without HTTP: credentials verified once for every call of
 * a request, the refusals before any call counted once and against the bad-input budget, and a
 * request none of whose calls reached the core counted all the same.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '@/lib/errors/app-error';
import { seedUser } from '@/test/factories';
import { tokenFor } from '@/test/http';
import { createMemoryLimiter, setLimiter } from './rate-limit';
import { countRequest, finishRequest, invocationOf, openRequest, requestStep, requireCaller, type TRequest } from './request';
import { runOperation, type TOperation } from './run-operation';

const report: TOperation = { id: 'test.report', method: 'POST', auth: 'user', requires: [], rateLimit: 'report', body: z.strictObject({ n: z.number() }) };
const bearer = (token: string) => ({ token, via: 'bearer' as const });
const open = (credentials: { token: string; via: 'bearer' } | null, ip = '198.51.100.7') => openRequest({ requestId: 'r1', credentials, ip });
const codeOf = (e: unknown) => (e instanceof AppError ? e.code : String(e));
const callOnce = (request: TRequest, body: unknown = { n: 1 }) => runOperation(report, { ...invocationOf(request), readBody: async () => body }, async (ctx) => ctx.caller!.userId);

beforeEach(() => setLimiter(createMemoryLimiter()));

describe('openRequest', () => {
  it('verifies the credentials once: every call of the request runs as the claims found then', async () => {
    const user = await seedUser();
    const request = await open(bearer(await tokenFor(user)));
    expect(request.identity).toBe(`s:${user.authSubject}`);
    // A call that verified the credentials itself would refuse this token; the request's claims stand for it.
    const out = await runOperation(report, { ...invocationOf(request), credentials: bearer('not-a-token'), readBody: async () => ({ n: 1 }) }, async (ctx) => ctx.caller!.userId);
    expect(out.ok && out.value).toBe(user.id);
  });

  it('without valid credentials the request is the client address’s', async () => {
    expect((await open(null)).identity).toBe('ip:198.51.100.7');
    expect((await open(bearer('not-a-token'))).claims).toBeNull();
  });
});

describe('the refusals before any call', () => {
  it('requireCaller: 401 (the transport names what is missing; a bad token is invalid), counted under the public rule; over it, 429', async () => {
    const none = await requireCaller(await open(null), 'send a token');
    expect([codeOf(none?.error), (none?.error as Error).message, none?.limit?.limit]).toEqual(['UNAUTHORIZED', 'send a token', 100]);
    const bad = await requireCaller(await open(bearer('not-a-token')), 'send a token');
    expect((bad?.error as Error).message).toBe('Invalid or expired token');
    for (let i = 0; i < 98; i++) await requireCaller(await open(null), 'send a token');
    const over = await requireCaller(await open(null), 'send a token');
    expect([codeOf(over?.error), over?.limit?.remaining, over?.retryAfter]).toEqual(['RATE_LIMIT_EXCEEDED', 0, expect.any(Number)]);
    const user = await seedUser();
    expect(await requireCaller(await open(bearer(await tokenFor(user))), 'send a token')).toBeUndefined();
  });

  it('requestStep: what a step throws is the answer, the request counts once, and malformed input fills the bad-input budget', async () => {
    const user = await seedUser();
    const token = await tokenFor(user);
    const request = await open(bearer(token));
    const ok = await requestStep(request, () => 42);
    expect(ok).toEqual({ ok: true, value: 42 });
    expect(request.counted).toBe(false);
    const tooLarge = await requestStep(request, () => {
      throw new AppError('PAYLOAD_TOO_LARGE', 'too large');
    });
    expect([tooLarge.ok, !tooLarge.ok && codeOf(tooLarge.error), !tooLarge.ok && tooLarge.limit?.remaining]).toEqual([false, 'PAYLOAD_TOO_LARGE', 999]);
    await requestStep(request, () => {
      throw new AppError('VALIDATION_ERROR', 'again');
    });
    expect(request.limit?.remaining, 'one request, one count').toBe(999);
    // 60 malformed requests fill the budget: the caller's next call waits in the penalty box.
    for (let i = 0; i < 60; i++) {
      await requestStep(await open(bearer(token)), () => {
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'not JSON');
      });
    }
    const boxed = await callOnce(await open(bearer(token)));
    expect(!boxed.ok && (boxed.error as Error).message).toMatch(/^Too many malformed requests/);
  }, 15_000);

  it('a fault is no refusal of the client: uncounted', async () => {
    const request = await open(null);
    const fault = await requestStep(request, () => {
      throw new Error('boom');
    });
    expect([fault.ok, request.counted]).toEqual([false, false]);
  });
});

describe('counting a request', () => {
  it('countRequest: counted once (over the limit, 429); finishRequest does not count a request whose call counted', async () => {
    const user = await seedUser();
    const token = await tokenFor(user);
    const early = await open(bearer(token));
    expect(await countRequest(early, { badInput: 'VALIDATION_ERROR' })).toBeUndefined();
    expect([early.counted, early.limit?.limit, early.limit?.remaining]).toEqual([true, 1000, 999]);

    const request = await open(bearer(token));
    const out = await callOnce(request);
    expect(out.ok).toBe(true);
    // The call counted under its own rule; the request's state is the call's.
    expect([request.counted, request.limit?.limit, request.limit?.remaining]).toEqual([true, 5, 4]);
    expect(await finishRequest(request)).toMatchObject({ limit: 5, remaining: 4 });

    const noCall = await open(bearer(token));
    expect(await finishRequest(noCall)).toMatchObject({ limit: 1000, remaining: 998 });
  });
});
