/**
 * The operation core checks the principal's permission set, not its role: a principal whose set
 * lacks a permission the operation requires is refused 403 FORBIDDEN and the operation does not
 * run, whatever the role. The set is narrowed here by hand, as an API key's scopes will narrow it.
 */
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { TPermission } from '@/lib/auth/permissions';
import { AppError } from '@/lib/errors/app-error';
import * as principals from '@/lib/principals/principal';
import { seedUser } from '@/test/factories';
import { tokenFor } from '@/test/http';
import { createMemoryLimiter, setLimiter } from './rate-limit';
import { runOperation, type TInvocation, type TOperation } from './run-operation';

const narrowing = { to: null as readonly TPermission[] | null };

// The principal as the core loads it, its permission set replaced while `narrowing.to` is set.
const realPrincipalFor = principals.principalFor;
const spy = vi.spyOn(principals, 'principalFor').mockImplementation(async (...args) => {
  const principal = await realPrincipalFor(...args);
  return narrowing.to ? { ...principal, permissions: new Set(narrowing.to) } : principal;
});
afterAll(() => spy.mockRestore());

const trade: TOperation = { id: 'test.trade', method: 'POST', auth: 'user', requires: ['trade'], body: z.strictObject({ amount: z.number() }) };
const read: TOperation = { id: 'test.read', method: 'GET', auth: 'user', requires: ['read'] };
const publicRead: TOperation = { id: 'test.publicRead', method: 'GET', auth: 'public', requires: ['read'] };
const adminWrite: TOperation = { id: 'test.admin', method: 'POST', auth: 'user', requires: ['admin'], body: z.strictObject({ price: z.number() }) };

const invocation = (token: string | null, over: Partial<TInvocation> = {}): TInvocation => ({
  requestId: 'r1',
  credentials: token ? { token, via: 'bearer' } : null,
  ip: '198.51.100.10',
  ...over,
});

/** The outcome's error code, or 'ran' when the operation's function ran. */
const outcomeOf = async (op: TOperation, inv: TInvocation) => {
  let ran = false;
  const out = await runOperation(op, inv, async () => ((ran = true), { ok: true }));
  if (out.ok) return ran ? 'ran' : 'ok without running';
  return out.error instanceof AppError ? `${out.error.status} ${out.error.code}` : String(out.error);
};

describe('the core checks the permission set', () => {
  beforeEach(() => {
    setLimiter(createMemoryLimiter());
    narrowing.to = null;
  });

  it("a player's role gives what it gave before: reads and trades, no admin operation", async () => {
    const player = await tokenFor(await seedUser());
    expect(await outcomeOf(trade, invocation(player, { readBody: async () => ({ amount: 1 }) }))).toBe('ran');
    expect(await outcomeOf(read, invocation(player))).toBe('ran');
    expect(await outcomeOf(publicRead, invocation(player))).toBe('ran');
    expect(await outcomeOf(adminWrite, invocation(player, { readBody: async () => ({ price: 1 }) }))).toBe('403 FORBIDDEN');
  });

  it('a principal whose set lacks a required permission is refused 403 and nothing runs', async () => {
    const player = await tokenFor(await seedUser());
    narrowing.to = ['read'];
    expect(await outcomeOf(trade, invocation(player, { readBody: async () => ({ amount: 1 }) }))).toBe('403 FORBIDDEN');
    expect(await outcomeOf(read, invocation(player))).toBe('ran');
    narrowing.to = ['trade'];
    expect(await outcomeOf(read, invocation(player))).toBe('403 FORBIDDEN');
    expect(await outcomeOf(trade, invocation(player, { readBody: async () => ({ amount: 1 }) }))).toBe('ran');
    // On a public operation the set counts whenever there is a principal; an anonymous caller has none.
    expect(await outcomeOf(publicRead, invocation(player))).toBe('403 FORBIDDEN');
    expect(await outcomeOf(publicRead, invocation(null))).toBe('ran');
  });

  it('the set, not the role: an administrator whose set lacks admin is refused an admin operation, before its input is read', async () => {
    const admin = await tokenFor(await seedUser({ isAdmin: true }));
    expect(await outcomeOf(adminWrite, invocation(admin, { readBody: async () => ({ price: 1 }) }))).toBe('ran');
    narrowing.to = ['read', 'trade', 'social', 'account', 'moderate'];
    let read = false;
    const readBody = async () => ((read = true), { price: 'not a number' });
    expect(await outcomeOf(adminWrite, invocation(admin, { readBody }))).toBe('403 FORBIDDEN');
    expect(read).toBe(false);
  });
});
