/** Points routes: administrators' awards, transfers between players (never overspent, also in parallel), the history and milestones. */
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { POST as transfer } from '@/app/api/points/transfer/route';
import { GET as history } from '@/app/api/users/[userId]/points/route';
import { POST as award } from '@/app/api/users/points/award/route';
import { getDb } from '@/db/client';
import { users } from '@/db/schema';
import { setLimiter } from '@/lib/operations/rate-limit';
import { seedUser } from '@/test/factories';
import { call, pinnedLimiter, tokenFor } from '@/test/http';
import { expectPointsChain } from '@/test/invariants';

beforeEach(() => setLimiter(pinnedLimiter()));

const pointsOf = async (userId: string) => {
  const [u] = await (await getDb()).select({ p: users.reputationPoints }).from(users).where(eq(users.id, userId));
  return u!.p;
};

const give = async (userId: string, amount: number) => {
  const admin = await seedUser({ isAdmin: true });
  const res = await call(award, '/api/users/points/award', { method: 'POST', token: await tokenFor(admin), body: { userId, amount, reason: 'test grant' } });
  expect(res.status).toBe(200);
  return res;
};

describe('POST /api/users/points/award', () => {
  it('administrators award and correct; the answer is the points transaction', async () => {
    const u = await seedUser();
    const res = await give(u.id, 120);
    expect(res.body).toMatchObject({ success: true, transaction: { amount: 120, pointsBefore: 0, pointsAfter: 120, reason: 'test grant' } });
    expect(typeof res.body.transaction.id).toBe('string');
    const fix = await give(u.id, -20);
    expect(fix.body.transaction).toMatchObject({ amount: -20, pointsBefore: 120, pointsAfter: 100 });
    expect(await pointsOf(u.id)).toBe(100);
    await expectPointsChain([u.id]);
  });

  it('a correction never takes a player below zero', async () => {
    const u = await seedUser();
    await give(u.id, 10);
    const admin = await seedUser({ isAdmin: true });
    const res = await call(award, '/api/users/points/award', { method: 'POST', token: await tokenFor(admin), body: { userId: u.id, amount: -11, reason: 'too much' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INSUFFICIENT_POINTS', details: { required: 11, available: 10 } });
    expect(await pointsOf(u.id)).toBe(10);
  });

  it('403 for players (the public reference let anyone award anyone), 401 without a token', async () => {
    const u = await seedUser();
    const res = await call(award, '/api/users/points/award', { method: 'POST', token: await tokenFor(u), body: { userId: u.id, amount: 1000, reason: 'me' } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    expect((await call(award, '/api/users/points/award', { method: 'POST', body: { userId: u.id, amount: 1, reason: 'x' } })).status).toBe(401);
    expect(await pointsOf(u.id)).toBe(0);
  });

  it('400 for a fractional, zero or missing amount and an unknown user 404', async () => {
    const admin = await seedUser({ isAdmin: true });
    const token = await tokenFor(admin);
    const u = await seedUser();
    for (const body of [{ userId: u.id, amount: 1.5, reason: 'x' }, { userId: u.id, amount: 0, reason: 'x' }, { userId: u.id, reason: 'x' }, { userId: u.id, amount: 5, reason: '' }]) {
      const res = await call(award, '/api/users/points/award', { method: 'POST', token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    const missing = await call(award, '/api/users/points/award', { method: 'POST', token, body: { userId: 'nobody', amount: 5, reason: 'x' } });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('USER_NOT_FOUND');
  });
});

describe('POST /api/points/transfer', () => {
  it('moves a whole amount to another player; both sides get a row', async () => {
    const [a, b] = [await seedUser(), await seedUser()];
    await give(a.id, 100);
    const res = await call(transfer, '/api/points/transfer', { method: 'POST', token: await tokenFor(a), body: { toUserId: b.id, amount: 30, reason: 'thanks' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, transfer: { fromUserId: a.id, toUserId: b.id, amount: 30 }, pointsAfter: 70 });
    expect(await pointsOf(b.id)).toBe(30);
    const hb = await call(history, `/api/users/${b.id}/points`, { token: await tokenFor(b), params: { userId: b.id } });
    expect(hb.body.transactions[0]).toMatchObject({ amount: 30, pointsBefore: 0, pointsAfter: 30, reason: 'transfer_in' });
    await expectPointsChain([a.id, b.id]);
  });

  it('refuses oneself, more than held, an unknown recipient and bad amounts, changing nothing', async () => {
    const [a, b] = [await seedUser(), await seedUser()];
    await give(a.id, 10);
    const token = await tokenFor(a);
    const self = await call(transfer, '/api/points/transfer', { method: 'POST', token, body: { toUserId: a.id, amount: 1 } });
    expect([self.status, self.body.error.code]).toEqual([400, 'CANNOT_TRANSFER_TO_SELF']);
    const over = await call(transfer, '/api/points/transfer', { method: 'POST', token, body: { toUserId: b.id, amount: 11 } });
    expect([over.status, over.body.error.code]).toEqual([400, 'INSUFFICIENT_POINTS']);
    const nobody = await call(transfer, '/api/points/transfer', { method: 'POST', token, body: { toUserId: 'nobody', amount: 1 } });
    expect([nobody.status, nobody.body.error.code]).toEqual([404, 'USER_NOT_FOUND']);
    for (const amount of [0, -5, 2.5, '5']) {
      const bad = await call(transfer, '/api/points/transfer', { method: 'POST', token, body: { toUserId: b.id, amount } });
      expect(bad.status, String(amount)).toBe(400);
    }
    expect([await pointsOf(a.id), await pointsOf(b.id)]).toEqual([10, 0]);
  });

  it('parallel transfers never overspend: 12 transfers of 10 from 50 points, exactly 5 succeed', async () => {
    const a = await seedUser();
    const targets = await Promise.all(Array.from({ length: 3 }, () => seedUser()));
    await give(a.id, 50);
    const token = await tokenFor(a);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => call(transfer, '/api/points/transfer', { method: 'POST', token, body: { toUserId: targets[i % 3]!.id, amount: 10 } })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    expect(results.filter((r) => r.status !== 200).every((r) => r.body.error.code === 'INSUFFICIENT_POINTS')).toBe(true);
    expect(await pointsOf(a.id)).toBe(0);
    const received = await Promise.all(targets.map((t) => pointsOf(t.id)));
    expect(received.reduce((s, p) => s + p, 0)).toBe(50);
    await expectPointsChain([a.id, ...targets.map((t) => t.id)]);
  });

  it('transfers in opposite directions at once neither deadlock nor lose points', async () => {
    const [a, b] = [await seedUser(), await seedUser()];
    await give(a.id, 100);
    await give(b.id, 100);
    const [ta, tb] = [await tokenFor(a), await tokenFor(b)];
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        i % 2
          ? call(transfer, '/api/points/transfer', { method: 'POST', token: ta, body: { toUserId: b.id, amount: 7 } })
          : call(transfer, '/api/points/transfer', { method: 'POST', token: tb, body: { toUserId: a.id, amount: 3 } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect((await pointsOf(a.id)) + (await pointsOf(b.id))).toBe(200);
    expect(await pointsOf(a.id)).toBe(100 - 5 * 7 + 5 * 3);
    await expectPointsChain([a.id, b.id]);
  });
});

describe('GET /api/users/{userId}/points', () => {
  it('owner sees the balance, the history newest first with a cursor, and the milestone checklist; others 403', async () => {
    const u = await seedUser();
    await give(u.id, 5);
    await give(u.id, 6);
    await give(u.id, 7);
    const token = await tokenFor(u);
    const first = await call(history, `/api/users/${u.id}/points`, { token, params: { userId: u.id }, query: { limit: 2 } });
    expect(first.status).toBe(200);
    expect(first.body.points).toBe(18);
    expect(first.body.transactions.map((t: { amount: number }) => t.amount)).toEqual([7, 6]);
    expect(first.body.nextCursor).toEqual(expect.any(Number));
    const second = await call(history, `/api/users/${u.id}/points`, { token, params: { userId: u.id }, query: { limit: 2, before: first.body.nextCursor } });
    expect(second.body.transactions.map((t: { amount: number }) => t.amount)).toEqual([5]);
    expect(second.body.nextCursor).toBeNull();
    expect(first.body.milestones.map((m: { milestone: string }) => m.milestone)).toEqual([
      'profile_completed', 'profile_image', 'username_set', 'social_a_linked', 'social_b_linked', 'wallet_connected', 'first_referral',
    ]);
    expect(first.body.milestones.every((m: { awarded: boolean }) => !m.awarded)).toBe(true);
    const other = await seedUser();
    const denied = await call(history, `/api/users/${u.id}/points`, { token: await tokenFor(other), params: { userId: u.id } });
    expect(denied.status).toBe(403);
  });
});
