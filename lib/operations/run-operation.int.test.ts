/**
 * The operation core without HTTP: what a second transport (the A2A endpoint) gets by calling
 * runOperation with a caller's credentials and a params object. Same auth, limits, validation
 * and caller as REST, and never a request object.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { seedUser } from '@/test/factories';
import { AppError } from '@/lib/errors/app-error';
import { tokenFor } from '@/test/http';
import { createMemoryLimiter, setLimiter } from './rate-limit';
import { runOperation, type TInvocation, type TOperation } from './run-operation';

const transfer: TOperation = {
  id: 'test.transfer',
  method: 'POST',
  auth: 'user',
  rateLimit: 'report',
  body: z.strictObject({ amount: z.number().positive().max(100), note: z.string().max(20).optional() }),
  fieldErrors: { amount: 'INVALID_TRADE_SIZE' },
};
const adminOnly: TOperation = { id: 'test.admin', method: 'POST', auth: 'admin' };
const publicRead: TOperation = { id: 'test.read', method: 'GET', auth: 'public', query: z.object({ n: z.coerce.number().int().max(5).default(1) }) };

const bearer = (token: string) => ({ token, via: 'bearer' as const });
const invocation = (over: Partial<TInvocation>): TInvocation => ({ requestId: 'r1', credentials: null, ip: '198.51.100.9', ...over });
const echo = async (ctx: { caller: unknown; body: unknown; query: unknown }) => ({ caller: ctx.caller, body: ctx.body, query: ctx.query });

describe('runOperation', () => {
  beforeEach(() => setLimiter(createMemoryLimiter()));

  it('runs the function for a verified caller with the validated input, and reports the rate limit', async () => {
    const user = await seedUser();
    const out = await runOperation(transfer, invocation({ credentials: bearer(await tokenFor(user)), readBody: async () => ({ amount: 5 }) }), echo);
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.value.caller).toMatchObject({ userId: user.id, username: user.username, isAdmin: false, isAgent: false });
    expect(out.value.body).toEqual({ amount: 5 });
    expect(out.limit).toMatchObject({ success: true, limit: 5, remaining: 4 });
  });

  it('refuses with typed errors: no caller, a bad token, bad input, a field out of range, not an admin', async () => {
    const user = await seedUser();
    const token = await tokenFor(user);
    const code = async (op: TOperation, over: Partial<TInvocation>) => {
      const out = await runOperation(op, invocation(over), echo);
      expect(out.ok).toBe(false);
      return !out.ok && out.error instanceof AppError ? out.error.code : String(!out.ok && out.error);
    };
    expect(await code(transfer, { readBody: async () => ({ amount: 5 }) })).toBe('UNAUTHORIZED');
    expect(await code(publicRead, { credentials: bearer('not-a-token') })).toBe('UNAUTHORIZED');
    expect(await code(transfer, { credentials: bearer(token), readBody: async () => ({ amount: 5, extra: true }) })).toBe('VALIDATION_ERROR');
    expect(await code(transfer, { credentials: bearer(token), readBody: async () => ({ amount: 5000 }) })).toBe('INVALID_TRADE_SIZE');
    expect(await code(transfer, { credentials: bearer(token), readBody: async () => ({ amount: 1, note: 'nul\u0000' }) })).toBe('VALIDATION_ERROR');
    expect(await code(publicRead, { rawQuery: { n: '9' } })).toBe('INVALID_PARAMETER');
    expect(await code(adminOnly, { credentials: bearer(token) })).toBe('FORBIDDEN');
  });

  it('anonymous public calls have no caller and count against the address', async () => {
    const out = await runOperation(publicRead, invocation({ rawQuery: { n: '3' } }), echo);
    expect(out.ok && out.value).toEqual({ caller: null, body: {}, query: { n: 3 } });
    expect(out.limit).toMatchObject({ limit: 100 });
  });

  it("a transport's own checks run once the caller is known, before any input is read", async () => {
    let read = false;
    const out = await runOperation(
      transfer,
      invocation({
        credentials: bearer(await tokenFor(await seedUser())),
        transportChecks: () => {
          throw new AppError('FORBIDDEN', 'not from here');
        },
        readBody: async () => {
          read = true;
          return { amount: 1 };
        },
      }),
      echo,
    );
    expect(!out.ok && (out.error as AppError).code).toBe('FORBIDDEN');
    expect(read).toBe(false);
  });
});
