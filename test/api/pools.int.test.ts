import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST as adminPriceRoute } from '@/app/api/admin/perps/[ticker]/price/route';
import { POST as investRoute } from '@/app/api/npc/[actorId]/invest/route';
import { GET as portfolioRoute } from '@/app/api/npc/[actorId]/portfolio/route';
import { POST as depositRoute } from '@/app/api/pools/[id]/deposit/route';
import { GET as detailRoute } from '@/app/api/pools/[id]/route';
import { POST as withdrawRoute } from '@/app/api/pools/[id]/withdraw/route';
import { GET as userDepositsRoute } from '@/app/api/pools/deposits/[userId]/route';
import { GET as listRoute } from '@/app/api/pools/route';
import { getDb, withTransaction } from '@/db/client';
import { balanceTransactions, poolDeposits, pools, users, type TPoolRow, type TUserRow } from '@/db/schema';
import { callerOfUser } from '@/lib/auth/caller';
import { dec } from '@/lib/money/decimal';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { openPoolPerp } from '@/lib/pools/service/trade';
import { createPool } from '@/lib/pools/service/create-pool';
import { seedWorld } from '@/lib/world/seed/world';
import { seedUser } from '@/test/factories';
import { call, tokenFor } from '@/test/http';

beforeAll(async () => {
  await seedWorld(await getDb());
});

beforeEach(() => {
  setLimiter(createMemoryLimiter());
});

let poolCounter = 0;
/** A fresh pool managed by a fresh NPC, with `seed` of seed capital. */
const seedPool = async (opts: { seed?: string; fee?: string } = {}) => {
  const manager = await seedUser({ isActor: true, balance: '0' });
  const pool = await withTransaction((tx) =>
    createPool(tx, {
      managerId: manager.id,
      name: `Test Pool ${++poolCounter}`,
      tier: 'B',
      performanceFeeRate: opts.fee ?? '0.2000',
      seedCapital: opts.seed ?? '10000',
    }),
  );
  return { pool, manager };
};

const balanceOf = async (userId: string) => {
  const [u] = await (await getDb()).select().from(users).where(eq(users.id, userId));
  return dec(u!.virtualBalance);
};

const deposit = async (user: TUserRow, poolId: string, amount: unknown) =>
  call(depositRoute, `/api/pools/${poolId}/deposit`, { method: 'POST', token: await tokenFor(user), params: { id: poolId }, body: { amount } });
const withdraw = async (user: TUserRow, poolId: string, depositId: string, shares: unknown) =>
  call(withdrawRoute, `/api/pools/${poolId}/withdraw`, { method: 'POST', token: await tokenFor(user), params: { id: poolId }, body: { depositId, shares } });
const setPrice = async (ticker: string, price: number) => {
  const admin = await seedUser({ isAdmin: true, balance: '0' });
  const res = await call(adminPriceRoute, `/api/admin/perps/${ticker}/price`, { method: 'POST', token: await tokenFor(admin), params: { ticker }, body: { price } });
  expect(res.status).toBe(200);
};

describe('GET /api/pools', () => {
  it('lists the seeded pools with every field, NAV backed by seed capital', async () => {
    const res = await call(listRoute, '/api/pools');
    expect(res.status).toBe(200);
    const seeded = res.body.pools.filter((p: { id: string }) => p.id.startsWith('seed-pool-'));
    expect(seeded).toHaveLength(4);
    const reed = seeded.find((p: { id: string }) => p.id === 'seed-pool-1');
    expect(reed).toMatchObject({ tier: 'S', npcActorId: 'actor-marcus_reed', isActive: true, performanceFeeRate: 0.2 });
    expect(reed.totalValue).toBeGreaterThan(0);
    expect(reed.manager.username).toBe('marcus_reed');
    expect(reed.userStake).toBeNull();
  });
});

describe('POST /api/pools/{id}/deposit and /withdraw', () => {
  it('deposits at the share price, then withdraws half and the rest with the fee on profit only', async () => {
    const { pool, manager } = await seedPool({ seed: '10000', fee: '0.2000' });
    const user = await seedUser({ balance: '5000' });
    const d = await deposit(user, pool.id, 1000);
    expect(d.status).toBe(200);
    expect(d.body.deposit).toMatchObject({ poolId: pool.id, amount: 1000, shares: 1000, sharePrice: 1 });
    expect(d.body.newBalance).toBe('4000');

    // The manager's perp gains: the share price rises.
    const opened = await openPoolPerp({ poolId: pool.id, ticker: 'NEXA', side: 'long', size: '20000', leverage: '2' });
    expect(opened.ok).toBe(true);
    await setPrice('NEXA', 170);
    const detail = await call(detailRoute, `/api/pools/${pool.id}`, { params: { id: pool.id }, token: await tokenFor(user) });
    expect(detail.status).toBe(200);
    const price = detail.body.pool.sharePrice;
    expect(price).toBeGreaterThan(1);
    expect(detail.body.userDeposits).toHaveLength(1);
    expect(detail.body.positions.perps).toHaveLength(1);

    const half = await withdraw(user, pool.id, d.body.deposit.id, 500);
    expect(half.status).toBe(200);
    const w = half.body.withdrawal;
    expect(w.shares).toBe(500);
    expect(w.pnl).toBeCloseTo(w.value - 500, 6);
    expect(w.performanceFee).toBeCloseTo(0.2 * w.pnl, 6);
    expect(dec(half.body.newBalance).toNumber()).toBeCloseTo(4000 + w.value - w.performanceFee, 6);
    const fees = await (await getDb())
      .select()
      .from(balanceTransactions)
      .where(and(eq(balanceTransactions.userId, manager.id), eq(balanceTransactions.type, 'pool_performance_fee')));
    expect(fees).toHaveLength(1);

    const rest = await withdraw(user, pool.id, d.body.deposit.id, 500);
    expect(rest.status).toBe(200);
    const again = await withdraw(user, pool.id, d.body.deposit.id, 1);
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('INSUFFICIENT_SHARES');
    await setPrice('NEXA', 142.5);
  });

  it('refuses someone else\'s lot (403), an unknown lot (404), too many shares (400), too little money (400)', async () => {
    const { pool } = await seedPool();
    const a = await seedUser({ balance: '100' });
    const b = await seedUser({ balance: '100' });
    const d = await deposit(a, pool.id, 50);
    expect((await withdraw(b, pool.id, d.body.deposit.id, 1)).status).toBe(403);
    expect((await withdraw(a, pool.id, 'nope', 1)).status).toBe(404);
    const tooMany = await withdraw(a, pool.id, d.body.deposit.id, 51);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.code).toBe('INSUFFICIENT_SHARES');
    const broke = await deposit(a, pool.id, 51);
    expect(broke.status).toBe(400);
    expect(broke.body.error.code).toBe('INSUFFICIENT_BALANCE');
    expect((await deposit(a, 'no-such-pool', 10)).status).toBe(404);
    const small = await deposit(a, pool.id, 0.5);
    expect(small.status).toBe(400);
    expect(small.body.error.code).toBe('INVALID_TRADE_SIZE');
    expect(await balanceOf(a.id)).toEqual(dec(50));
  });
});

describe('NPC invest and portfolio', () => {
  it('deposits with an actor, withdraws an amount FIFO, and reads the portfolio', async () => {
    const { pool, manager } = await seedPool();
    const user = await seedUser({ balance: '1000' });
    const token = await tokenFor(user);
    const dep = await call(investRoute, `/api/npc/${manager.id}/invest`, { method: 'POST', token, params: { actorId: manager.id }, body: { action: 'deposit', amount: 300 } });
    expect(dep.status).toBe(200);
    expect(dep.body.transaction).toMatchObject({ type: 'deposit', amount: 300, shares: 300, poolId: pool.id });
    const wd = await call(investRoute, `/api/npc/${manager.id}/invest`, { method: 'POST', token, params: { actorId: manager.id }, body: { action: 'withdraw', amount: 100 } });
    expect(wd.status).toBe(200);
    expect(wd.body.transaction.type).toBe('withdraw');
    expect(wd.body.transaction.amount).toBeGreaterThanOrEqual(100);
    const pf = await call(portfolioRoute, `/api/npc/${manager.id}/portfolio`, { token, params: { actorId: manager.id } });
    expect(pf.status).toBe(200);
    expect(pf.body.portfolio.totalValue).toBeCloseTo(10200, 4);
    const mine = await call(userDepositsRoute, `/api/pools/deposits/${user.id}`, { token, params: { userId: user.id } });
    expect(mine.status).toBe(200);
    expect(mine.body.deposits).toHaveLength(1);
    const other = await seedUser();
    const forbidden = await call(userDepositsRoute, `/api/pools/deposits/${user.id}`, { token: await tokenFor(other), params: { userId: user.id } });
    expect(forbidden.status).toBe(403);
  });
});

export { sql, pools, poolDeposits, callerOfUser, type TPoolRow };
