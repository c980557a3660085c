/** The points ledger's rules on the real database: the chain, never below zero, awards once, transfers that cannot overspend. */
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getDb, withTransaction } from '@/db/client';
import { pointsTransactions, users } from '@/db/schema';
import { isAppError } from '@/lib/errors/app-error';
import { seedUser } from '@/test/factories';
import { expectPointsChain } from '@/test/invariants';
import { applyPointsChange } from './ledger';
import { awardMilestone } from './service/milestones';

const pointsOf = async (userId: string) => {
  const [u] = await (await getDb()).select({ p: users.reputationPoints }).from(users).where(eq(users.id, userId));
  return u!.p;
};

describe('points ledger', () => {
  it('keeps the chain and never goes below zero over random sequences of changes (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: -300, max: 300 }).filter((n) => n !== 0), { minLength: 1, maxLength: 12 }), async (amounts) => {
        const u = await seedUser();
        let model = 0;
        for (const amount of amounts) {
          try {
            const r = await withTransaction((tx) => applyPointsChange(tx, { userId: u.id, amount, reason: 'prop' }));
            expect(r!.pointsBefore).toBe(model);
            model += amount;
            expect(r!.pointsAfter).toBe(model);
          } catch (e) {
            // Refused only when it would go below zero, and then nothing changed.
            expect(isAppError(e) && e.code).toBe('INSUFFICIENT_POINTS');
            expect(model + amount).toBeLessThan(0);
          }
        }
        expect(await pointsOf(u.id)).toBe(model);
        await expectPointsChain([u.id]);
      }),
      { numRuns: 8 },
    );
  });

  it('refuses a fractional or zero amount as a bug, not a user error', async () => {
    const u = await seedUser();
    await expect(withTransaction((tx) => applyPointsChange(tx, { userId: u.id, amount: 1.5, reason: 'x' }))).rejects.toThrow(/whole number/);
    await expect(withTransaction((tx) => applyPointsChange(tx, { userId: u.id, amount: 0, reason: 'x' }))).rejects.toThrow(/whole number/);
  });

  it('answers USER_NOT_FOUND for a missing user', async () => {
    await expect(withTransaction((tx) => applyPointsChange(tx, { userId: 'nobody', amount: 5, reason: 'x' }))).rejects.toMatchObject({ code: 'USER_NOT_FOUND' });
  });

  it('pays an award key once, also when 10 triggers race', async () => {
    const u = await seedUser();
    const paid = await Promise.all(Array.from({ length: 10 }, () => withTransaction((tx) => awardMilestone(tx, u.id, 'profile_image'))));
    expect(paid.filter((p) => p > 0)).toEqual([25]);
    expect(await pointsOf(u.id)).toBe(25);
    const rows = await (await getDb()).select().from(pointsTransactions).where(eq(pointsTransactions.userId, u.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ amount: 25, pointsBefore: 0, pointsAfter: 25, reason: 'milestone:profile_image', awardKey: 'milestone:profile_image' });
  });

  it('rolls the claim back with the transaction that made it', async () => {
    const u = await seedUser();
    await expect(
      withTransaction(async (tx) => {
        await awardMilestone(tx, u.id, 'wallet_connected');
        throw new Error('later step failed');
      }),
    ).rejects.toThrow('later step failed');
    expect(await pointsOf(u.id)).toBe(0);
    expect(await withTransaction((tx) => awardMilestone(tx, u.id, 'wallet_connected'))).toBe(25);
  });
});
