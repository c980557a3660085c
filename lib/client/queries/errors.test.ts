import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError } from '@/lib/client/api';
import { usersMe } from '@/lib/contracts/users';
import { COMMENT_ERROR_MESSAGES } from './comments';
import { describeError, getFieldErrors, hasErrorCode } from './errors';
import { FOLLOW_ERROR_MESSAGES } from './follows';
import { TRADE_ERROR_MESSAGES } from './markets';
import { PERP_ERROR_MESSAGES } from './perps';
import { POST_ERROR_MESSAGES } from './posts';

const answer = (status: number, body: unknown) => vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));

afterEach(() => vi.unstubAllGlobals());

describe('describeError', () => {
  it('uses the general sentence of a code, else the server message, else a generic sentence', () => {
    expect(describeError(new ApiError(401, 'UNAUTHORIZED', 'Missing token'))).toBe('You need to sign in first.');
    expect(describeError(new ApiError(400, 'MARKET_CLOSED', 'Market is resolved'))).toBe('Market is resolved');
    expect(describeError(new Error('boom'))).toBe('Something went wrong. Try again.');
  });

  it("prefers the caller's overrides, by code only", () => {
    const closed = new ApiError(400, 'MARKET_CLOSED', 'Market is resolved');
    expect(describeError(closed, TRADE_ERROR_MESSAGES)).toBe('This market is closed.');
    expect(describeError(new ApiError(429, 'RATE_LIMIT_EXCEEDED', 'x'), POST_ERROR_MESSAGES)).toBe('You are going a little fast. Wait a moment and try again.');
    expect(describeError(new ApiError(403, 'FORBIDDEN', 'x'), COMMENT_ERROR_MESSAGES)).toBe('Only the author can change this.');
    expect(describeError(new ApiError(400, 'CANNOT_FOLLOW_SELF', 'x'), FOLLOW_ERROR_MESSAGES)).toBe("You can't follow yourself.");
    expect(describeError(new ApiError(401, 'UNAUTHORIZED', 'x'), TRADE_ERROR_MESSAGES)).toBe('You need to sign in first.');
    expect(describeError(new Error('boom'), TRADE_ERROR_MESSAGES)).toBe('Something went wrong. Try again.');
  });

  it("a perp validation error shows the server's reason unless it is a generic one", () => {
    expect(describeError(new ApiError(400, 'VALIDATION_ERROR', 'leverage must be at most 100'), PERP_ERROR_MESSAGES)).toBe('leverage must be at most 100');
    expect(describeError(new ApiError(400, 'VALIDATION_ERROR', 'Validation failed'), PERP_ERROR_MESSAGES)).toBe('Check the size and leverage and try again.');
    expect(describeError(new ApiError(400, 'VALIDATION_ERROR', ''), PERP_ERROR_MESSAGES)).toBe('Check the size and leverage and try again.');
  });
});

describe('ApiError codes', () => {
  it('keeps a code of the server table and reads field errors', async () => {
    const issues = [{ path: 'content.0', message: 'Too long' }];
    vi.stubGlobal('fetch', answer(400, { success: false, error: { code: 'VALIDATION_ERROR', message: 'Invalid request body', details: { issues } } }));
    const e = await api(usersMe).catch((err: unknown) => err);
    expect(hasErrorCode(e, 'VALIDATION_ERROR')).toBe(true);
    expect(getFieldErrors(e)).toEqual({ content: 'Too long' });
  });

  it('an answer without the envelope, or with an unknown code, is HTTP_ERROR with its status', async () => {
    vi.stubGlobal('fetch', answer(502, { success: false, error: { code: 'SOMETHING_ELSE', message: 'Bad gateway' } }));
    const e = await api(usersMe).catch((err: unknown) => err);
    expect(e).toMatchObject({ code: 'HTTP_ERROR', status: 502, message: 'Bad gateway' });
    vi.stubGlobal('fetch', vi.fn(async () => new Response('<html>', { status: 500 })));
    expect(await api(usersMe).catch((err: unknown) => err)).toMatchObject({ code: 'HTTP_ERROR', status: 500 });
  });

  it('no answer at all is NETWORK_ERROR', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('offline'))));
    expect(describeError(await api(usersMe).catch((err: unknown) => err))).toBe('Could not reach the server. Check your connection.');
  });
});
