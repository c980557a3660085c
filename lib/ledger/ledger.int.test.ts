import fc from 'fast-check';
import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb, withTransaction } from '@/db/client';
import { balanceTransactions, users } from '@/db/schema';
import { seedUser } from '@/test/factories';
import { AppError } from '@/lib/errors/app-error';
import { dec } from '@/lib/money/decimal';
import { applyBalanceChange, credit, debit } from './ledger';

const balanceOf = async (userId: string) => {
  const db = await getDb();
  const [u] = await db.select({ b: users.virtualBalance }).from(users).where(eq(users.id, userId));
  return dec(u!.b);
};

const lastRow = async (userId: string) => {
  const db = await getDb();
  const [r] = await db
    .select()
    .from(balanceTransactions)
    .where(eq(balanceTransactions.userId, userId))
    .orderBy(desc(balanceTransactions.seq))
    .limit(1);
  return r!;
};

describe('ledger', () => {
  it('credits and debits exactly, writing balanceBefore + amount = balanceAfter', async () => {
    const u = await seedUser({ balance: '100' });
    await withTransaction((tx) => credit(tx, { userId: u.id, amount: '0.1', type: 'deposit', description: 'a' }));
    await withTransaction((tx) => credit(tx, { userId: u.id, amount: '0.2', type: 'deposit', description: 'b' }));
    const r = await withTransaction((tx) => debit(tx, { userId: u.id, amount: '0.3', type: 'pred_buy', description: 'c' }));
    expect(r.balanceAfter.toFixed()).toBe('100');
    const row = await lastRow(u.id);
    expect(row.amount).toBe('-0.30000000');
    expect(dec(row.balanceBefore).plus(row.amount).eq(row.balanceAfter)).toBe(true);
    expect((await balanceOf(u.id)).toFixed()).toBe('100');
  });

  it('refuses to overdraw and reports required and available amounts', async () => {
    const u = await seedUser({ balance: '10' });
    const err = await withTransaction((tx) =>
      debit(tx, { userId: u.id, amount: '10.00000001', type: 'pred_buy', description: 'x' }),
    ).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe('INSUFFICIENT_BALANCE');
    expect(err.details).toEqual({ required: '10.00000001', available: '10' });
    expect((await balanceOf(u.id)).toFixed()).toBe('10');
  });

  it('a failed transaction leaves neither the balance nor a ledger row behind', async () => {
    const u = await seedUser({ balance: '50' });
    const before = await lastRow(u.id);
    await withTransaction(async (tx) => {
      await debit(tx, { userId: u.id, amount: '20', type: 'pred_buy', description: 'rolled back' });
      throw new Error('boom after the debit');
    }).catch(() => {});
    expect((await balanceOf(u.id)).toFixed()).toBe('50');
    expect((await lastRow(u.id)).id).toBe(before.id);
  });

  it('rejects zero amounts and unknown users', async () => {
    const u = await seedUser({ balance: '1' });
    await expect(withTransaction((tx) => applyBalanceChange(tx, { userId: u.id, amount: '0', type: 'deposit', description: '' }))).rejects.toThrow(/non-zero/);
    const err = await withTransaction((tx) => credit(tx, { userId: 'nobody', amount: '1', type: 'deposit', description: '' })).catch((e) => e);
    expect(err.code).toBe('USER_NOT_FOUND');
  });

  it('property: any sequence of credits and debits keeps balance = last balanceAfter and never negative', async () => {
    const amount = fc
      .tuple(fc.integer({ min: 1, max: 5_000_00000000 }), fc.boolean())
      .map(([units, isCredit]) => ({ amount: dec(units).div(1e8), isCredit }));
    await fc.assert(
      fc.asyncProperty(fc.array(amount, { minLength: 1, maxLength: 12 }), async (ops) => {
        const u = await seedUser({ balance: '0' });
        let model = dec(0);
        for (const op of ops) {
          const ok = op.isCredit || model.gte(op.amount);
          const result = await withTransaction((tx) =>
            op.isCredit
              ? credit(tx, { userId: u.id, amount: op.amount, type: 'deposit', description: 'p' })
              : debit(tx, { userId: u.id, amount: op.amount, type: 'pred_buy', description: 'p' }),
          ).catch((e: AppError) => e);
          if (ok) {
            model = op.isCredit ? model.plus(op.amount) : model.minus(op.amount);
            expect(result).not.toBeInstanceOf(AppError);
          } else {
            expect((result as AppError).code).toBe('INSUFFICIENT_BALANCE');
          }
          const balance = await balanceOf(u.id);
          expect(balance.eq(model)).toBe(true);
          expect(balance.isNegative()).toBe(false);
          if (model.gt(0)) expect(dec((await lastRow(u.id)).balanceAfter).eq(balance)).toBe(true);
        }
      }),
      { numRuns: 15 },
    );
  });

  it('20 parallel debits that together exceed the balance never overdraw it', async () => {
    const u = await seedUser({ balance: '1000' });
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        withTransaction((tx) => debit(tx, { userId: u.id, amount: '75', type: 'pred_buy', description: `debit ${i}` })),
      ),
    );
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    const refused = results.filter((r) => r.status === 'rejected' && (r.reason as AppError).code === 'INSUFFICIENT_BALANCE').length;
    expect(ok).toBe(13); // 13 × 75 = 975 ≤ 1000 < 14 × 75
    expect(refused).toBe(7);
    expect((await balanceOf(u.id)).toFixed()).toBe('25');
    const db = await getDb();
    const rows = await db.select().from(balanceTransactions).where(eq(balanceTransactions.userId, u.id)).orderBy(balanceTransactions.seq);
    // The chain of rows is unbroken: each row starts where the previous one ended.
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.balanceBefore).toBe(rows[i - 1]!.balanceAfter);
    expect(rows.at(-1)!.balanceAfter).toBe('25.00000000');
  });
});
