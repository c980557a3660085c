/**
 * The operation core without HTTP: what a second transport (the A2A endpoint) gets by calling
 * runOperation with a caller's credentials and a params object. Same auth, limits, validation
 * and caller as REST, and never a request object.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { seedUser } from '@/test/factories';
import { AppError } from '@/lib/errors/app-error';
import { tokenFor, tokenForSubject } from '@/test/http';
import { createMemoryLimiter, setLimiter } from './rate-limit';
import { runOperation, type TInvocation, type TOperation } from './run-operation';

const transfer: TOperation = {
  id: 'test.transfer',
  method: 'POST',
  auth: 'user',
  requires: ['trade'],
  rateLimit: 'report',
  body: z.strictObject({ amount: z.number().positive().max(100), note: z.string().max(20).optional() }),
  fieldErrors: { amount: 'INVALID_TRADE_SIZE' },
};
const adminOnly: TOperation = { id: 'test.admin', method: 'POST', auth: 'user', requires: ['admin'] };
/** An admin write with params, query and body of its own: what a player must never learn the shape of. */
const adminWrite: TOperation = {
  id: 'test.adminWrite',
  method: 'POST',
  auth: 'user',
  requires: ['admin'],
  params: z.object({ id: z.uuid() }),
  query: z.strictObject({ dryRun: z.enum(['0', '1']).optional() }),
  body: z.strictObject({ price: z.number().positive() }),
};
const moderatorWrite: TOperation = { ...adminWrite, id: 'test.moderatorWrite', requires: ['moderate'] };
const publicRead: TOperation = { id: 'test.read', method: 'GET', auth: 'public', requires: ['read'], query: z.object({ n: z.coerce.number().int().max(5).default(1) }) };

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

  it('authorisation before validation: a player on an admin or moderator operation gets 403 whatever the input, unread; an admin gets the 400', async () => {
    const player = await tokenFor(await seedUser());
    const admin = await tokenFor(await seedUser({ isAdmin: true }));
    const id = '00000000-0000-4000-8000-000000000001';
    const malformed: Partial<TInvocation>[] = [
      { rawParams: { id: 'not-a-uuid' }, readBody: async () => ({ price: 1 }) },
      { rawParams: { id: 'nul\u0000' }, readBody: async () => ({ price: 1 }) },
      { rawParams: { id }, rawQuery: { unknown: 'x' }, readBody: async () => ({ price: 1 }) },
      { rawParams: { id }, readBody: async () => ({ price: -1, extra: true }) },
      { rawParams: { id }, readBody: async () => [] },
      { rawParams: { id }, readBody: async () => ({}) },
    ];
    for (const op of [adminWrite, moderatorWrite]) {
      for (const over of malformed) {
        let read = false;
        const readBody = over.readBody && (async () => ((read = true), over.readBody!()));
        const asPlayer = await runOperation(op, invocation({ ...over, readBody, credentials: bearer(player) }), echo);
        expect(!asPlayer.ok && (asPlayer.error as AppError).code, `${op.id} ${JSON.stringify(over.rawParams)}`).toBe('FORBIDDEN');
        expect(read, 'the body of a caller without the role is never read').toBe(false);
        const asAdmin = await runOperation(op, invocation({ ...over, credentials: bearer(admin) }), echo);
        expect(!asAdmin.ok && (asAdmin.error as AppError).code).toMatch(/^(INVALID_PARAMETER|VALIDATION_ERROR)$/);
      }
      // No token is still 401 first, and the valid call of an admin still runs.
      const anonymous = await runOperation(op, invocation(malformed[0]!), echo);
      expect(!anonymous.ok && (anonymous.error as AppError).code).toBe('UNAUTHORIZED');
      const ok = await runOperation(op, invocation({ rawParams: { id }, readBody: async () => ({ price: 2 }), credentials: bearer(admin) }), echo);
      expect(ok.ok && ok.value.body).toEqual({ price: 2 });
    }
  });

  it('a user operation keeps its order: the input is validated before the user is loaded (a bad body is 400, for anyone with a token)', async () => {
    const stranger = await tokenForSubject(`never-seen-${Date.now()}`);
    const out = await runOperation(transfer, invocation({ credentials: bearer(stranger), readBody: async () => ({ amount: 'x' }) }), echo);
    expect(!out.ok && (out.error as AppError).code).toBe('VALIDATION_ERROR');
    // Nothing was provisioned for a refused call.
    const { getDb } = await import('@/db/client');
    const { users } = await import('@/db/schema');
    const { like } = await import('drizzle-orm');
    expect(await (await getDb()).select().from(users).where(like(users.authSubject, 'never-seen-%'))).toHaveLength(0);
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
