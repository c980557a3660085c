/**
 * Trading pools (issue 13) through the real route handlers: every pool endpoint and its errors,
 * the money each one moves (ledger chain, conservation, the pool's books), and liquidity.
 * Concurrency: pools-concurrency.int.test.ts; a simulated day with game ticks: pools-day.int.test.ts.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST as adminPriceRoute } from '@/app/api/admin/perps/[ticker]/price/route';
import { POST as investRoute } from '@/app/api/npc/[actorId]/invest/route';
import { GET as portfolioRoute } from '@/app/api/npc/[actorId]/portfolio/route';
import { POST as depositRoute } from '@/app/api/pools/[id]/deposit/route';
import { GET as detailRoute } from '@/app/api/pools/[id]/route';
import { POST as withdrawRoute } from '@/app/api/pools/[id]/withdraw/route';
import { GET as userDepositsRoute } from '@/app/api/pools/deposits/[userId]/route';
import { GET as listRoute } from '@/app/api/pools/route';
import { getDb, withTransaction } from '@/db/client';
import { balanceTransactions, perpPositions, poolDeposits, poolNavPoints, pools, poolWithdrawals, users, type TPoolRow, type TUserRow } from '@/db/schema';
import { resetClock, setFixedTime } from '@/lib/clock/clock';
import { credit, debit } from '@/lib/ledger/ledger';
import { dec, type TDecimal } from '@/lib/money/decimal';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { quoteDeposit } from '@/lib/pools/math';
import { buyPoolPrediction, openPoolPerp } from '@/lib/pools/service/trade';
import { seedWorld } from '@/lib/world/seed/world';
import { seedPool, seedUser } from '@/test/factories';
import { call, tokenFor } from '@/test/http';
import { expectLedgerChain, expectPoolBooks, navFromRows, totalBalance } from '@/test/invariants';

beforeAll(async () => {
  await seedWorld(await getDb());
});

beforeEach(() => {
  setLimiter(createMemoryLimiter());
});

afterEach(() => {
  resetClock();
});

let admin: TUserRow | undefined;
const adminToken = async () => {
  admin ??= await seedUser({ isAdmin: true, balance: '0' });
  return tokenFor(admin);
};

const deposit = async (user: TUserRow, poolId: string, amount: unknown) =>
  call(depositRoute, `/api/pools/${poolId}/deposit`, { method: 'POST', token: await tokenFor(user), params: { id: poolId }, body: { amount } });
const withdraw = async (user: TUserRow, poolId: string, depositId: string, shares: unknown) =>
  call(withdrawRoute, `/api/pools/${poolId}/withdraw`, { method: 'POST', token: await tokenFor(user), params: { id: poolId }, body: { depositId, shares } });
const detail = async (poolId: string, opts: { user?: TUserRow; range?: string } = {}) =>
  call(detailRoute, `/api/pools/${poolId}`, {
    params: { id: poolId },
    token: opts.user ? await tokenFor(opts.user) : undefined,
    query: opts.range ? { range: opts.range } : {},
  });
const invest = async (user: TUserRow, actorId: string, body: Record<string, unknown>) =>
  call(investRoute, `/api/npc/${actorId}/invest`, { method: 'POST', token: await tokenFor(user), params: { actorId }, body });
const portfolio = async (user: TUserRow, actorId: string) => call(portfolioRoute, `/api/npc/${actorId}/portfolio`, { token: await tokenFor(user), params: { actorId } });
const lotsOf = async (caller: TUserRow | 'admin', userId: string) =>
  call(userDepositsRoute, `/api/pools/deposits/${userId}`, { token: caller === 'admin' ? await adminToken() : await tokenFor(caller), params: { userId } });
const setPrice = async (ticker: string, price: number) => {
  const res = await call(adminPriceRoute, `/api/admin/perps/${ticker}/price`, { method: 'POST', token: await adminToken(), params: { ticker }, body: { price } });
  expect(res.status).toBe(200);
  return res;
};

const db = async () => getDb();
const balanceOf = async (userId: string) => {
  const [u] = await (await db()).select().from(users).where(eq(users.id, userId));
  return dec(u!.virtualBalance);
};
const poolRow = async (poolId: string) => {
  const [p] = await (await db()).select().from(pools).where(eq(pools.id, poolId));
  return p!;
};
const lotRow = async (lotId: string) => {
  const [l] = await (await db()).select().from(poolDeposits).where(eq(poolDeposits.id, lotId));
  return l!;
};
const ledgerOf = async (userId: string) =>
  (await db()).select().from(balanceTransactions).where(eq(balanceTransactions.userId, userId)).orderBy(asc(balanceTransactions.seq));
/** Money arriving in (or leaving) a pool's account from outside it: its NAV moves with no trade. */
const windfall = async (pool: TPoolRow, amount: string) =>
  withTransaction((tx) =>
    dec(amount).isNegative()
      ? debit(tx, { userId: pool.accountUserId, amount: dec(amount).negated(), type: 'withdrawal', description: 'Test loss' })
      : credit(tx, { userId: pool.accountUserId, amount, type: 'bonus', description: 'Test windfall' }),
  );
/** Everyone a pool's money can reach: its account, its manager and the given players. */
const partiesOf = (pool: TPoolRow, ...players: TUserRow[]) => [pool.accountUserId, pool.npcActorId, ...players.map((p) => p.id)];
const num = (d: TDecimal) => d.toNumber();

describe('GET /api/pools', () => {
  it('lists the seeded pools with every field, NAV backed by seed capital', async () => {
    const res = await call(listRoute, '/api/pools');
    expect(res.status).toBe(200);
    const seeded = res.body.pools.filter((p: { id: string }) => p.id.startsWith('seed-pool-'));
    expect(seeded).toHaveLength(4);
    const reed = seeded.find((p: { id: string }) => p.id === 'seed-pool-1');
    expect(reed).toMatchObject({
      tier: 'S',
      npcActorId: 'actor-marcus_reed',
      name: 'Reed Macro Fund',
      isActive: true,
      performanceFeeRate: 0.2,
      totalValue: 50000,
      totalShares: 50000,
      sharePrice: 1,
      cash: 50000,
      positionsValue: 0,
      openPositions: 0,
      investorCount: 0,
      lifetimePnL: 0,
      priceChange24h: 0,
      userStake: null,
    });
    expect(reed.manager).toMatchObject({ id: 'actor-marcus_reed', username: 'marcus_reed' });
    expect(reed.sparkline.length).toBeGreaterThanOrEqual(1);
    expect(new Date(reed.createdAt).getTime()).toBeGreaterThan(0);
    // Tier order: S before A before B before C.
    const order = { S: 0, A: 1, B: 2, C: 3 } as Record<string, number>;
    const tiers = res.body.pools.map((p: { tier: string }) => order[p.tier]!);
    expect(tiers).toEqual([...tiers].sort((a: number, b: number) => a - b));
  });

  it('filters by tier in any case, and refuses an unknown tier with 400', async () => {
    for (const [tier, expected] of [
      ['S', 'S'],
      ['a', 'A'],
      ['C', 'C'],
    ] as const) {
      const res = await call(listRoute, '/api/pools', { query: { tier } });
      expect(res.status).toBe(200);
      expect(res.body.pools.length).toBeGreaterThan(0);
      expect(res.body.pools.every((p: { tier: string }) => p.tier === expected)).toBe(true);
    }
    for (const tier of ['X', 'SS', '1', '']) {
      const bad = await call(listRoute, '/api/pools', { query: { tier } });
      expect(bad.status, `tier=${tier}`).toBe(400);
      expect(bad.body.error.code).toBe('INVALID_PARAMETER');
    }
  });

  it("shows the caller's stake with a token (over all their lots), and null without one or without shares", async () => {
    const { pool } = await seedPool({ seed: '10000' });
    const user = await seedUser({ balance: '1000' });
    const first = await deposit(user, pool.id, 300);
    expect(first.status).toBe(200);
    const second = await deposit(user, pool.id, '200');
    expect(second.status).toBe(200);
    await windfall(pool, '1050'); // NAV 11,550 over 10,500 shares: 1.1
    const mine = await call(listRoute, '/api/pools', { token: await tokenFor(user) });
    const p = mine.body.pools.find((x: { id: string }) => x.id === pool.id);
    expect(p.userStake).toEqual({ shares: 500, value: 550, costBasis: 500, unrealizedPnL: 50 });
    expect(p).toMatchObject({ totalValue: 11550, totalShares: 10500, sharePrice: 1.1, investorCount: 1, lifetimePnL: 1050 });
    // Where the caller holds no shares there is no stake, token or not.
    const other = mine.body.pools.find((x: { id: string }) => x.id === 'seed-pool-2');
    expect(other.userStake).toBeNull();
    const anon = await call(listRoute, '/api/pools');
    expect(anon.body.pools.find((x: { id: string }) => x.id === pool.id).userStake).toBeNull();
    // Once every lot is withdrawn, no stake either.
    expect((await withdraw(user, pool.id, first.body.deposit.id, 300)).status).toBe(200);
    expect((await withdraw(user, pool.id, second.body.deposit.id, 200)).status).toBe(200);
    const after = await call(listRoute, '/api/pools', { token: await tokenFor(user) });
    expect(after.body.pools.find((x: { id: string }) => x.id === pool.id)).toMatchObject({ userStake: null, investorCount: 0 });
  });
});

describe('GET /api/pools/{id}', () => {
  it('answers the NAV history of each range: 24h, 7d (default), 30d and all', async () => {
    const { pool } = await seedPool();
    const DAY = 86_400_000;
    const t = Date.now();
    const d = await db();
    // A pool opened 40 days ago with NAV points at 35, 20, 10 and 2 days ago (and its seed point now).
    await d.update(pools).set({ createdAt: new Date(t - 40 * DAY) }).where(eq(pools.id, pool.id));
    const ages = [35, 20, 10, 2];
    await d.insert(poolNavPoints).values(
      ages.map((days, i) => ({
        poolId: pool.id,
        totalValue: String(10000 + i),
        totalShares: '10000',
        sharePrice: String((10000 + i) / 10000),
        source: 'tick' as const,
        createdAt: new Date(t - days * DAY),
      })),
    );
    const seen = async (range?: string) => {
      const res = await detail(pool.id, { range });
      expect(res.status).toBe(200);
      const times = res.body.history.map((h: { timestamp: string }) => new Date(h.timestamp).getTime());
      expect(times, 'oldest first').toEqual([...times].sort((a: number, b: number) => a - b));
      // `time` is the same instant in unix seconds, as in every other history.
      for (const h of res.body.history) expect(h.time).toBe(Math.floor(new Date(h.timestamp).getTime() / 1000));
      return ages.filter((days) => times.includes(t - days * DAY));
    };
    expect(await seen('24h')).toEqual([]);
    expect(await seen()).toEqual([2]);
    expect(await seen('7d')).toEqual([2]);
    expect(await seen('30d')).toEqual([20, 10, 2]);
    expect(await seen('all')).toEqual([35, 20, 10, 2]);
    const day = await detail(pool.id, { range: '24h' });
    expect(day.body.history.at(-1)).toMatchObject({ sharePrice: 1, totalValue: 10000 });
    // The 24 h change is against the newest point at least a day old (1.0003, two days ago); the
    // sparkline starts at that price, then the last day's points.
    expect(day.body.pool.priceChange24h).toBeCloseTo(-0.03, 4);
    expect(day.body.pool.sparkline).toEqual([1.0003, 1]);
    const bad = await detail(pool.id, { range: '1y' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_PARAMETER');
  });

  it('shows the positions after the manager trades, the activity, and the caller’s lots with a token', async () => {
    const { pool } = await seedPool({ seed: '10000' });
    const user = await seedUser({ balance: '2000' });
    const dep = await deposit(user, pool.id, 1000);
    expect(dep.status).toBe(200);
    const perp = await openPoolPerp({ poolId: pool.id, ticker: 'SOLR', side: 'short', size: '3000', leverage: '3' });
    expect(perp.ok).toBe(true);
    const pred = await buyPoolPrediction({ poolId: pool.id, marketId: 'seed-q-1', outcome: 'YES', amount: '500' });
    expect(pred.ok).toBe(true);
    const out = await withdraw(user, pool.id, dep.body.deposit.id, 100);
    expect(out.status).toBe(200);

    const res = await detail(pool.id, { user });
    expect(res.status).toBe(200);
    const { perps, predictions } = res.body.positions;
    expect(perps).toHaveLength(1);
    expect(perps[0]).toMatchObject({ id: perp.id, ticker: 'SOLR', side: 'short', size: 3000, leverage: 3, collateral: 1000 });
    expect(perps[0].value).toBeCloseTo(1000 + perps[0].unrealizedPnL, 8);
    expect(predictions).toHaveLength(1);
    expect(predictions[0]).toMatchObject({ marketId: 'seed-q-1', side: 'YES', costBasis: 500 });
    expect(predictions[0].value).toBeCloseTo(predictions[0].shares * predictions[0].price, 6);
    expect(predictions[0].unrealizedPnL).toBeCloseTo(predictions[0].value - 500, 6);
    const p = res.body.pool;
    expect(p.openPositions).toBe(2);
    expect(p.cash).toBeCloseTo(11000 - 1000 - 3 - 500 - out.body.withdrawal.value, 6);
    expect(p.cash + p.positionsValue).toBeCloseTo(p.totalValue, 6);
    expect(p.totalValue).toBeCloseTo(num(await navFromRows(pool.id)), 6);

    // Activity, newest first: the withdrawal, the trades, the deposit (the seed is not activity).
    const types = res.body.activity.map((a: { type: string }) => a.type);
    expect([...types].sort()).toEqual(['deposit', 'perp_open', 'pred_buy', 'withdraw']);
    const times = res.body.activity.map((a: { timestamp: string }) => a.timestamp);
    expect([...times].sort().reverse()).toEqual(times);
    const depositEntry = res.body.activity.find((a: { type: string }) => a.type === 'deposit');
    expect(depositEntry).toMatchObject({ id: dep.body.deposit.id, amount: 1000, user: { id: user.id, username: user.username } });
    expect(res.body.activity.find((a: { type: string }) => a.type === 'withdraw')).toMatchObject({ amount: out.body.withdrawal.value, user: { id: user.id } });
    expect(res.body.activity.find((a: { type: string }) => a.type === 'perp_open')).toMatchObject({ amount: 1003, user: null });
    expect(res.body.activity.find((a: { type: string }) => a.type === 'pred_buy')).toMatchObject({ amount: 500, user: null });

    expect(res.body.userDeposits).toHaveLength(1);
    expect(res.body.userDeposits[0]).toMatchObject({
      id: dep.body.deposit.id,
      poolId: pool.id,
      poolName: pool.name,
      amount: 1000,
      shares: 1000,
      sharePrice: 1,
      remainingShares: 900,
      costBasis: 900,
      status: 'active',
      isSeed: false,
    });
    // Anonymous: the same pool, no lots.
    const anon = await detail(pool.id);
    expect(anon.body.userDeposits).toEqual([]);
    expect(anon.body.pool.userStake).toBeNull();
    expect(anon.body.pool.totalValue).toBe(p.totalValue);
  });

  it('answers 404 for an unknown pool', async () => {
    const res = await detail('no-such-pool');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});

describe('POST /api/pools/{id}/deposit', () => {
  it('buys shares at the share price after the NAV moved, never changing the share price of others', async () => {
    const { pool, manager } = await seedPool({ seed: '10000' });
    const opened = await openPoolPerp({ poolId: pool.id, ticker: 'QBIT', side: 'long', size: '8000', leverage: '4' });
    expect(opened.ok).toBe(true);
    await setPrice('QBIT', 97);
    const before = await detail(pool.id);
    const nav = dec(before.body.pool.totalValue);
    expect(nav.gt(10500)).toBe(true);
    expect(nav.toNumber()).toBeCloseTo(num(await navFromRows(pool.id)), 6);
    const seedBefore = (await lotsOf('admin', manager.id)).body.deposits[0];

    const user = await seedUser({ balance: '5000' });
    const res = await deposit(user, pool.id, 1234.5);
    expect(res.status).toBe(200);
    // The pure quote on the state the deposit saw: NAV as read, 10,000 shares.
    const exact = quoteDeposit({ nav, totalShares: '10000' }, '1234.5');
    expect(res.body.deposit.shares).toBe(exact.shares.toNumber());
    expect(res.body.deposit.shares).toBeCloseTo(1234.5 / before.body.pool.sharePrice, 8);
    expect(res.body.deposit.sharePrice).toBeCloseTo(before.body.pool.sharePrice, 10);
    expect(res.body.deposit).toMatchObject({ poolId: pool.id, amount: 1234.5 });
    expect(res.body.newBalance).toBe('3765.5');
    expect(dec((await lotRow(res.body.deposit.id)).shares).eq(exact.shares)).toBe(true);

    const after = await detail(pool.id);
    expect(after.body.pool.totalValue).toBeCloseTo(nav.plus('1234.5').toNumber(), 8);
    expect(after.body.pool.totalShares).toBeCloseTo(10000 + exact.shares.toNumber(), 8);
    expect(after.body.pool.sharePrice).toBeGreaterThanOrEqual(before.body.pool.sharePrice);
    expect(after.body.pool.sharePrice - before.body.pool.sharePrice).toBeLessThan(1e-11);
    const seedAfter = (await lotsOf('admin', manager.id)).body.deposits[0];
    expect(seedAfter.currentValue).toBeGreaterThanOrEqual(seedBefore.currentValue);
    expect(seedAfter.currentValue - seedBefore.currentValue).toBeLessThan(1e-6);
    await expectLedgerChain(partiesOf(pool, user));
    await expectPoolBooks([pool.id]);
  });

  it('accepts the amount as a decimal string', async () => {
    const { pool } = await seedPool();
    const user = await seedUser({ balance: '100' });
    const res = await deposit(user, pool.id, '12.34567891');
    expect(res.status).toBe(200);
    // Money keeps 8 places; the amount is rounded down to them.
    expect(res.body.deposit).toMatchObject({ amount: 12.34567891, shares: 12.34567891 });
    expect((await deposit(user, pool.id, '1')).status).toBe(200);
    expect(await balanceOf(user.id)).toEqual(dec('86.65432109'));
  });

  it('refuses below the minimum (numbers and strings) with INVALID_TRADE_SIZE, junk with VALIDATION_ERROR, and writes nothing', async () => {
    const { pool } = await seedPool();
    const user = await seedUser({ balance: '100' });
    for (const amount of [0.5, '0.5', 0, '0', -1, '-1', 0.99999999, '0.99999999', 1e13, '10000000000000']) {
      const res = await deposit(user, pool.id, amount);
      expect(res.status, JSON.stringify(amount)).toBe(400);
      expect(res.body.error.code, JSON.stringify(amount)).toBe('INVALID_TRADE_SIZE');
    }
    for (const amount of ['abc', '', '1e3', null, true, [5], { v: 5 }]) {
      const res = await deposit(user, pool.id, amount);
      expect(res.status, JSON.stringify(amount)).toBe(400);
      expect(res.body.error.code, JSON.stringify(amount)).toBe('VALIDATION_ERROR');
    }
    const missing = await call(depositRoute, `/api/pools/${pool.id}/deposit`, { method: 'POST', token: await tokenFor(user), params: { id: pool.id }, body: {} });
    expect(missing.status).toBe(400);
    const extra = await call(depositRoute, `/api/pools/${pool.id}/deposit`, { method: 'POST', token: await tokenFor(user), params: { id: pool.id }, body: { amount: 5, shares: 5 } });
    expect(extra.status).toBe(400);
    expect(await balanceOf(user.id)).toEqual(dec(100));
    expect(await (await db()).select().from(poolDeposits).where(eq(poolDeposits.userId, user.id))).toHaveLength(0);
  });

  it('refuses more than the balance (INSUFFICIENT_BALANCE), no token (401), an unknown pool (404) and writes nothing', async () => {
    const { pool } = await seedPool();
    const user = await seedUser({ balance: '100' });
    const broke = await deposit(user, pool.id, 100.01);
    expect(broke.status).toBe(400);
    expect(broke.body.error).toMatchObject({ code: 'INSUFFICIENT_BALANCE', details: { required: '100.01', available: '100' } });
    const anon = await call(depositRoute, `/api/pools/${pool.id}/deposit`, { method: 'POST', params: { id: pool.id }, body: { amount: 10 } });
    expect(anon.status).toBe(401);
    const missing = await deposit(user, 'no-such-pool', 10);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
    expect(await balanceOf(user.id)).toEqual(dec(100));
    expect(dec((await poolRow(pool.id)).totalShares).eq(10000)).toBe(true);
    expect(await ledgerOf(user.id)).toHaveLength(1);
    // The whole balance is fine.
    expect((await deposit(user, pool.id, 100)).status).toBe(200);
    expect(await balanceOf(user.id)).toEqual(dec(0));
  });

  it('refuses an inactive pool with POOL_INACTIVE (the route and NPC invest) but still pays withdrawals', async () => {
    const { pool, manager } = await seedPool();
    const user = await seedUser({ balance: '500' });
    const d = await deposit(user, pool.id, 200);
    await (await db()).update(pools).set({ isActive: false }).where(eq(pools.id, pool.id));
    const res = await deposit(user, pool.id, 100);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('POOL_INACTIVE');
    const viaActor = await invest(user, manager.id, { action: 'deposit', amount: 100 });
    expect(viaActor.status).toBe(400);
    expect(viaActor.body.error.code).toBe('POOL_INACTIVE');
    expect(await balanceOf(user.id)).toEqual(dec(300));
    const listed = await detail(pool.id);
    expect(listed.body.pool.isActive).toBe(false);
    // Money in an inactive pool is never trapped.
    const out = await withdraw(user, pool.id, d.body.deposit.id, 200);
    expect(out.status).toBe(200);
    expect(await balanceOf(user.id)).toEqual(dec(500));
  });
  it('refuses deposits into a pool that lost all its value (POOL_INACTIVE); its shares are worth nothing to withdraw', async () => {
    const { pool } = await seedPool({ seed: '1000' });
    const user = await seedUser({ balance: '100' });
    const d = await deposit(user, pool.id, 100);
    await windfall(pool, '-1100'); // the whole cash gone: NAV 0 over 1,100 shares
    expect((await detail(pool.id)).body.pool).toMatchObject({ totalValue: 0, sharePrice: 0, totalShares: 1100 });
    await withTransaction((tx) => credit(tx, { userId: user.id, amount: '50', type: 'bonus', description: 'Test money' }));
    const res = await deposit(user, pool.id, 50);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('POOL_INACTIVE');
    const out = await withdraw(user, pool.id, d.body.deposit.id, 100);
    expect(out.status).toBe(400);
    expect(out.body.error.code).toBe('INVALID_TRADE_SIZE');
    expect(await balanceOf(user.id)).toEqual(dec(50));
    await expectPoolBooks([pool.id]);
  });
});

describe('POST /api/pools/{id}/withdraw', () => {
  it('withdraws part then all of a lot: value at the share price, pnl against the lot cost, the fee to the manager, money conserved', async () => {
    const { pool, manager } = await seedPool({ seed: '10000', fee: '0.2000' });
    const user = await seedUser({ balance: '5000' });
    const d = await deposit(user, pool.id, 1000);
    expect(d.body.deposit).toMatchObject({ shares: 1000, sharePrice: 1 });
    await windfall(pool, '2200'); // NAV 13,200 over 11,000 shares: 1.2
    const parties = partiesOf(pool, user);
    const total = await totalBalance(parties);

    // 400 shares: worth 480, cost 400, pnl 80, fee 16, net 464.
    const part = await withdraw(user, pool.id, d.body.deposit.id, 400);
    expect(part.status).toBe(200);
    expect(part.body.withdrawal).toMatchObject({
      depositId: d.body.deposit.id,
      poolId: pool.id,
      shares: 400,
      sharePrice: 1.2,
      value: 480,
      pnl: 80,
      performanceFee: 16,
      netAmount: 464,
      remainingShares: 600,
    });
    expect(part.body.newBalance).toBe('4464');
    expect(await balanceOf(manager.id)).toEqual(dec(16));
    expect(await totalBalance(parties)).toEqual(total);
    const lot = await lotRow(d.body.deposit.id);
    expect(dec(lot.remainingShares).toNumber()).toBe(600);
    expect(dec(lot.costBasis).toNumber()).toBe(600);

    // The rest: 600 shares worth 720, cost 600, pnl 120, fee 24.
    const rest = await withdraw(user, pool.id, d.body.deposit.id, 600);
    expect(rest.status).toBe(200);
    expect(rest.body.withdrawal).toMatchObject({ shares: 600, value: 720, pnl: 120, performanceFee: 24, netAmount: 696, remainingShares: 0 });
    expect(rest.body.newBalance).toBe('5160');
    expect(await balanceOf(manager.id)).toEqual(dec(40));
    expect(await totalBalance(parties)).toEqual(total);
    expect(await lotRow(d.body.deposit.id)).toMatchObject({
      remainingShares: dec(0).toFixed(18),
      costBasis: '0.00000000',
      withdrawnValue: '1200.00000000',
      realizedPnL: '200.00000000',
      feesPaid: '40.00000000',
    });

    // The ledger: the pool pays the value, the holder gets it less the fee, the manager the fee.
    const fees = (await ledgerOf(manager.id)).filter((r) => r.type === 'pool_performance_fee');
    expect(fees.map((r) => r.amount)).toEqual(['16.00000000', '24.00000000']);
    expect(fees.every((r) => r.referenceType === 'pool' && r.referenceId === pool.id)).toBe(true);
    const paid = (await ledgerOf(pool.accountUserId)).filter((r) => r.type === 'pool_withdraw').map((r) => r.amount);
    expect(paid).toEqual(['-480.00000000', '-720.00000000']);
    const got = (await ledgerOf(user.id)).filter((r) => r.type === 'pool_withdraw').map((r) => r.amount);
    expect(got).toEqual(['464.00000000', '696.00000000']);
    const [u] = await (await db()).select().from(users).where(eq(users.id, user.id));
    expect(u!.lifetimePnL).toBe('160.00000000'); // pnl less fees
    const [m] = await (await db()).select().from(users).where(eq(users.id, manager.id));
    expect(m!.lifetimePnL).toBe('40.00000000');

    // The emptied lot: 400 INSUFFICIENT_SHARES; the listing says withdrawn.
    const again = await withdraw(user, pool.id, d.body.deposit.id, 1);
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('INSUFFICIENT_SHARES');
    const listing = await lotsOf(user, user.id);
    expect(listing.body.deposits[0]).toMatchObject({ status: 'withdrawn', remainingShares: 0, currentValue: 0, pendingFee: 0, realizedPnL: 200, feesPaid: 40, withdrawnValue: 1200 });
    await expectLedgerChain(parties);
    await expectPoolBooks([pool.id]);
  });

  it('charges no fee on a lot at a loss, and fees only on the gain of each lot (a later, dearer lot pays none)', async () => {
    const { pool, manager } = await seedPool({ seed: '10000', fee: '0.2500' });
    const early = await seedUser({ balance: '2000' });
    const late = await seedUser({ balance: '2000' });
    const a = await deposit(early, pool.id, 1000); // 1000 shares at 1
    await windfall(pool, '2750'); // 13,750 over 11,000: 1.25
    const b = await deposit(late, pool.id, 1000); // 800 shares at 1.25
    expect(b.body.deposit).toMatchObject({ shares: 800, sharePrice: 1.25 });
    await windfall(pool, '-1480'); // 13,270 over 11,800: 1.124576…
    const parties = partiesOf(pool, early, late);
    const total = await totalBalance(parties);

    const lost = await withdraw(late, pool.id, b.body.deposit.id, 800);
    expect(lost.status).toBe(200);
    expect(lost.body.withdrawal.pnl).toBeLessThan(0);
    expect(lost.body.withdrawal).toMatchObject({ performanceFee: 0, netAmount: lost.body.withdrawal.value });
    expect(lost.body.withdrawal.value).toBeCloseTo((800 * 13270) / 11800, 7);
    expect(await balanceOf(manager.id)).toEqual(dec(0));
    expect((await ledgerOf(manager.id)).filter((r) => r.type === 'pool_performance_fee')).toHaveLength(0);

    const won = await withdraw(early, pool.id, a.body.deposit.id, 1000);
    expect(won.status).toBe(200);
    expect(won.body.withdrawal.pnl).toBeGreaterThan(0);
    expect(won.body.withdrawal.performanceFee).toBeCloseTo(0.25 * won.body.withdrawal.pnl, 7);
    expect(await balanceOf(manager.id)).toEqual(dec(won.body.withdrawal.performanceFee));
    expect(await totalBalance(parties)).toEqual(total);
    await expectLedgerChain(parties);
    await expectPoolBooks([pool.id]);
  });

  it('a loss from trading (admin price after the manager opened a perp) pays no fee either', async () => {
    const { pool, manager } = await seedPool({ seed: '10000' });
    const user = await seedUser({ balance: '1000' });
    const d = await deposit(user, pool.id, 1000);
    expect((await openPoolPerp({ poolId: pool.id, ticker: 'MNTL', side: 'long', size: '4000', leverage: '2' })).ok).toBe(true);
    await setPrice('MNTL', 11.5);
    const res = await withdraw(user, pool.id, d.body.deposit.id, 1000);
    expect(res.status).toBe(200);
    expect(res.body.withdrawal.pnl).toBeLessThan(0);
    expect(res.body.withdrawal.performanceFee).toBe(0);
    expect(res.body.withdrawal.value).toBeLessThan(1000);
    expect(await balanceOf(manager.id)).toEqual(dec(0));
    await setPrice('MNTL', 12.4);
    await expectPoolBooks([pool.id]);
  });

  it("refuses too many shares (400), someone else's lot (403), an unknown lot or another pool's (404), the seed lot, no token (401)", async () => {
    const { pool, manager } = await seedPool({ managerCanSignIn: true });
    const { pool: other } = await seedPool();
    const a = await seedUser({ balance: '100' });
    const b = await seedUser({ balance: '100' });
    const d = await deposit(a, pool.id, 50);
    const elsewhere = await deposit(a, other.id, 20);

    const tooMany = await withdraw(a, pool.id, d.body.deposit.id, 50.001);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toMatchObject({ code: 'INSUFFICIENT_SHARES', details: { available: 50, depositId: d.body.deposit.id } });
    const theirs = await withdraw(b, pool.id, d.body.deposit.id, 1);
    expect(theirs.status).toBe(403);
    expect(theirs.body.error.code).toBe('FORBIDDEN');
    const unknown = await withdraw(a, pool.id, 'no-such-lot', 1);
    expect(unknown.status).toBe(404);
    const wrongPool = await withdraw(a, pool.id, elsewhere.body.deposit.id, 1);
    expect(wrongPool.status).toBe(404);
    expect(wrongPool.body.error.code).toBe('NOT_FOUND');
    const noPool = await withdraw(a, 'no-such-pool', d.body.deposit.id, 1);
    expect(noPool.status).toBe(404);
    for (const shares of [0, -1, '0', '-0.5']) {
      const r = await withdraw(a, pool.id, d.body.deposit.id, shares);
      expect(r.status, JSON.stringify(shares)).toBe(400);
      expect(r.body.error.code, JSON.stringify(shares)).toBe('INVALID_TRADE_SIZE');
    }
    // Shares worth less than the smallest unit of money: nothing to pay.
    const dust = await withdraw(a, pool.id, d.body.deposit.id, '0.000000001');
    expect(dust.status).toBe(400);
    expect(dust.body.error.code).toBe('INVALID_TRADE_SIZE');
    const anon = await call(withdrawRoute, `/api/pools/${pool.id}/withdraw`, { method: 'POST', params: { id: pool.id }, body: { depositId: d.body.deposit.id, shares: 1 } });
    expect(anon.status).toBe(401);

    // The manager's seed stays in the pool, even for the manager.
    const [seedLot] = await (await db()).select().from(poolDeposits).where(and(eq(poolDeposits.poolId, pool.id), eq(poolDeposits.isSeed, true)));
    expect(seedLot!.userId).toBe(manager.id);
    const seed = await withdraw(manager, pool.id, seedLot!.id, 1);
    expect(seed.status).toBe(403);
    expect(seed.body.error.code).toBe('FORBIDDEN');
    const seedByActor = await invest(manager, manager.id, { action: 'withdraw', amount: 10 });
    expect(seedByActor.status).toBe(400);
    expect(seedByActor.body.error.code).toBe('INSUFFICIENT_SHARES');

    expect(await balanceOf(a.id)).toEqual(dec(30));
    expect(await balanceOf(manager.id)).toEqual(dec(0));
    // A lot the manager bought like anyone pays no fee either: it would pay itself.
    await withTransaction((tx) => credit(tx, { userId: manager.id, amount: '100', type: 'bonus', description: 'Test money' }));
    const own = await deposit(manager, pool.id, 100);
    expect(own.status).toBe(200);
    await windfall(pool, '1015'); // 11,165 / 10,150: 1.1
    const ownOut = await withdraw(manager, pool.id, own.body.deposit.id, 100);
    expect(ownOut.status).toBe(200);
    expect(ownOut.body.withdrawal).toMatchObject({ value: 110, pnl: 10, performanceFee: 0, netAmount: 110 });
    expect(await balanceOf(manager.id)).toEqual(dec(110));
    expect(await (await db()).select().from(poolWithdrawals).where(eq(poolWithdrawals.userId, a.id))).toHaveLength(0);
    // Within a hair of the whole lot means the whole lot.
    const whole = await withdraw(a, pool.id, d.body.deposit.id, '50.0000000000001');
    expect(whole.status).toBe(200);
    expect(whole.body.withdrawal).toMatchObject({ shares: 50, value: 55, pnl: 5, performanceFee: 1, remainingShares: 0 });
    await expectPoolBooks([pool.id, other.id]);
  });

  it('raises cash for a large withdrawal by closing the pool’s perp in the same request', async () => {
    const { pool } = await seedPool({ seed: '10000' });
    const user = await seedUser({ balance: '5000' });
    const d = await deposit(user, pool.id, 5000);
    const perp = await openPoolPerp({ poolId: pool.id, ticker: 'NEXA', side: 'long', size: '26000', leverage: '2' });
    expect(perp.ok).toBe(true);
    const before = (await detail(pool.id)).body.pool;
    expect(before.cash).toBeCloseTo(15000 - 13000 - 26, 6);
    expect(before.cash).toBeLessThan(5000 * before.sharePrice);

    const res = await withdraw(user, pool.id, d.body.deposit.id, 5000);
    expect(res.status).toBe(200);
    const w = res.body.withdrawal;
    // Priced after the close: the withdrawer bears its cost, not those who stay.
    expect(w.sharePrice).toBeLessThan(before.sharePrice);
    // Closing 26,000 of NEXA costs its fee and its price impact (size / depth): a few hundred at most.
    expect(w.value).toBeGreaterThan(4900);
    expect(w.value).toBeCloseTo(5000 * w.sharePrice, 6);
    expect(w.performanceFee).toBe(0);
    expect(dec(res.body.newBalance).toNumber()).toBeCloseTo(w.value, 8);
    const [pos] = await (await db()).select().from(perpPositions).where(eq(perpPositions.id, perp.id!));
    expect(pos!.status).toBe('closed');
    const after = await detail(pool.id);
    expect(after.body.positions.perps).toHaveLength(0);
    expect(after.body.pool.cash).toBeCloseTo(after.body.pool.totalValue, 8);
    expect(after.body.pool.totalShares).toBe(10000);
    expect(after.body.activity.map((a: { type: string }) => a.type)).toContain('perp_close');
    // The seed's share price is what the pool is worth after the close, to the last unit.
    expect(after.body.pool.sharePrice).toBeCloseTo(w.sharePrice, 7);
    await expectLedgerChain(partiesOf(pool, user));
    await expectPoolBooks([pool.id]);
  });

  it('refuses INSUFFICIENT_LIQUIDITY when the cash is in prediction shares, and nothing moves (not even the perp it tried to close)', async () => {
    const { pool } = await seedPool({ seed: '10000' });
    const user = await seedUser({ balance: '3000' });
    const d = await deposit(user, pool.id, 3000);
    const perp = await openPoolPerp({ poolId: pool.id, ticker: 'HELX', side: 'long', size: '1000', leverage: '2' });
    expect(perp.ok).toBe(true);
    expect((await buyPoolPrediction({ poolId: pool.id, marketId: 'seed-q-3', outcome: 'YES', amount: '11900' })).ok).toBe(true);
    const before = (await detail(pool.id)).body.pool;
    expect(before.cash).toBeCloseTo(13000 - 501 - 11900, 6);
    const ledgerBefore = (await ledgerOf(pool.accountUserId)).length;
    const lotBefore = await lotRow(d.body.deposit.id);

    const res = await withdraw(user, pool.id, d.body.deposit.id, 3000);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INSUFFICIENT_LIQUIDITY');
    expect(res.body.error.details).toMatchObject({ poolId: pool.id });
    expect(Number(res.body.error.details.available)).toBeLessThan(Number(res.body.error.details.required));
    expect(await balanceOf(user.id)).toEqual(dec(0));
    expect(await lotRow(d.body.deposit.id)).toEqual(lotBefore);
    expect((await ledgerOf(pool.accountUserId)).length).toBe(ledgerBefore);
    const [pos] = await (await db()).select().from(perpPositions).where(eq(perpPositions.id, perp.id!));
    expect(pos!.status).toBe('open');
    const after = (await detail(pool.id)).body.pool;
    expect(after).toMatchObject({ cash: before.cash, totalShares: before.totalShares, totalValue: before.totalValue, openPositions: 2 });

    // What the cash and the perp can pay is paid.
    const small = await withdraw(user, pool.id, d.body.deposit.id, 500);
    expect(small.status).toBe(200);
    expect(small.body.withdrawal.remainingShares).toBe(2500);
    await expectLedgerChain(partiesOf(pool, user));
    await expectPoolBooks([pool.id]);
  });
});

describe('NPC invest and liquidity', () => {
  it('a withdrawal by amount also raises cash by closing perps first (planned and priced after the close), and refuses INSUFFICIENT_LIQUIDITY when the cash is in predictions', async () => {
    const { pool, manager } = await seedPool({ seed: '10000' });
    const user = await seedUser({ balance: '5000' });
    expect((await invest(user, manager.id, { action: 'deposit', amount: 5000 })).status).toBe(200);
    const perp = await openPoolPerp({ poolId: pool.id, ticker: 'ORBT', side: 'short', size: '26000', leverage: '2' });
    expect(perp.ok).toBe(true);
    const before = (await detail(pool.id)).body.pool;
    expect(before.cash).toBeLessThan(3000);
    const out = await invest(user, manager.id, { action: 'withdraw', amount: 3000 });
    expect(out.status).toBe(200);
    const t = out.body.transaction;
    // Cash is raised first and the shares are planned at the price after the close: the closing
    // cost (fee and impact) lowers the share price, the withdrawer still gets the amount asked.
    expect(t.sharePrice).toBeLessThan(before.sharePrice);
    expect(t.amount).toBeGreaterThanOrEqual(3000);
    expect(t.amount).toBeLessThan(3000.01);
    expect(t.shares).toBeGreaterThan(3000 / before.sharePrice);
    const [pos] = await (await db()).select().from(perpPositions).where(eq(perpPositions.id, perp.id!));
    expect(pos!.status).toBe('closed');
    await expectPoolBooks([pool.id]);

    // Now the cash goes into prediction shares: a withdrawal beyond the cash is refused whole.
    const cash = (await detail(pool.id)).body.pool.cash;
    expect((await buyPoolPrediction({ poolId: pool.id, marketId: 'seed-q-4', outcome: 'NO', amount: String(Math.floor(cash - 100)) })).ok).toBe(true);
    const balance = await balanceOf(user.id);
    const refused = await invest(user, manager.id, { action: 'withdraw', amount: 1000 });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('INSUFFICIENT_LIQUIDITY');
    expect(await balanceOf(user.id)).toEqual(balance);
    const ok = await invest(user, manager.id, { action: 'withdraw', amount: 50 });
    expect(ok.status).toBe(200);
    await expectLedgerChain(partiesOf(pool, user));
    await expectPoolBooks([pool.id]);
  });
});

describe('GET /api/pools/deposits/{userId}', () => {
  it('answers the owner with every lot and totals; the administrator too; 403 for others; 404 for an unknown user', async () => {
    const { pool } = await seedPool({ seed: '10000' });
    const { pool: second } = await seedPool({ seed: '5000' });
    const user = await seedUser({ balance: '3000' });
    const a = await deposit(user, pool.id, 1000);
    await deposit(user, second.id, 500);
    await windfall(pool, '1100'); // 12,100 over 11,000: 1.1
    await withdraw(user, pool.id, a.body.deposit.id, 500); // worth 550, pnl 50, fee 10

    const res = await lotsOf(user, user.id);
    expect(res.status).toBe(200);
    expect(res.body.deposits).toHaveLength(2);
    const first = res.body.deposits.find((l: { poolId: string }) => l.poolId === pool.id);
    expect(first).toMatchObject({
      amount: 1000,
      shares: 1000,
      remainingShares: 500,
      costBasis: 500,
      currentSharePrice: 1.1,
      currentValue: 550,
      unrealizedPnL: 50,
      pendingFee: 10,
      withdrawnValue: 550,
      realizedPnL: 50,
      feesPaid: 10,
      status: 'active',
      isSeed: false,
      poolName: pool.name,
    });
    expect(res.body.totals).toEqual({ invested: 1000, currentValue: 1050, unrealizedPnL: 50, realizedPnL: 50, feesPaid: 10 });

    const asAdmin = await lotsOf('admin', user.id);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body.deposits).toEqual(res.body.deposits);
    const other = await seedUser();
    const forbidden = await lotsOf(other, user.id);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe('FORBIDDEN');
    // A non-administrator learns nothing about whether an id exists.
    expect((await lotsOf(other, 'no-such-user')).status).toBe(403);
    const unknown = await lotsOf('admin', 'no-such-user');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('USER_NOT_FOUND');
    const empty = await lotsOf(other, other.id);
    expect(empty.body).toMatchObject({ deposits: [], totals: { invested: 0, currentValue: 0, unrealizedPnL: 0, realizedPnL: 0, feesPaid: 0 } });
    const anon = await call(userDepositsRoute, `/api/pools/deposits/${user.id}`, { params: { userId: user.id } });
    expect(anon.status).toBe(401);
  });
});

describe('POST /api/npc/{actorId}/invest', () => {
  it('deposits with an actor (any case of the action), then withdraws an amount from the oldest lot first', async () => {
    const { pool, manager } = await seedPool({ seed: '10000' });
    const user = await seedUser({ balance: '1000' });
    const t0 = Date.now();
    setFixedTime(new Date(t0));
    const first = await invest(user, manager.id, { action: 'Deposit', amount: 100 });
    expect(first.status).toBe(200);
    expect(first.body.transaction).toMatchObject({ type: 'deposit', amount: 100, shares: 100, poolId: pool.id, sharePrice: 1, pnl: 0, performanceFee: 0 });
    expect(first.body.newBalance).toBe('900');
    setFixedTime(new Date(t0 + 1000));
    const second = await invest(user, manager.username, { action: 'DEPOSIT', amount: '200' });
    expect(second.status).toBe(200);
    expect(second.body.transaction.poolId).toBe(pool.id);
    setFixedTime(new Date(t0 + 2000));
    const parties = partiesOf(pool, user);
    const total = await totalBalance(parties);

    const out = await invest(user, manager.id, { action: 'Withdraw', amount: 150 });
    expect(out.status).toBe(200);
    expect(out.body.transaction).toMatchObject({ type: 'withdraw', amount: 150, shares: 150, poolId: pool.id, sharePrice: 1, pnl: 0, performanceFee: 0 });
    expect(out.body.newBalance).toBe('850');
    const lots = await (await db()).select().from(poolDeposits).where(eq(poolDeposits.userId, user.id)).orderBy(asc(poolDeposits.createdAt));
    expect(lots.map((l) => dec(l.remainingShares).toNumber())).toEqual([0, 150]);
    expect(lots.map((l) => dec(l.costBasis).toNumber())).toEqual([0, 150]);
    const rows = await (await db()).select().from(poolWithdrawals).where(eq(poolWithdrawals.userId, user.id));
    expect(rows.map((r) => [r.depositId, dec(r.shares).toNumber()]).sort()).toEqual(
      [
        [lots[0]!.id, 100],
        [lots[1]!.id, 50],
      ].sort(),
    );
    expect(out.body.transaction.id).toBe(rows.find((r) => r.depositId === lots[0]!.id)!.id);
    expect(await totalBalance(parties)).toEqual(total);

    // More than the lots are worth: INSUFFICIENT_SHARES, nothing moves.
    const tooMuch = await invest(user, manager.id, { action: 'withdraw', amount: 150.01 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error).toMatchObject({ code: 'INSUFFICIENT_SHARES', details: { requested: 150.01, available: 150 } });
    expect(await balanceOf(user.id)).toEqual(dec(850));
    // Everything that is left, exactly.
    const rest = await invest(user, manager.id, { action: 'withdraw', amount: 150 });
    expect(rest.status).toBe(200);
    expect(await balanceOf(user.id)).toEqual(dec(1000));
    await expectLedgerChain(parties);
    await expectPoolBooks([pool.id]);
  });

  it('withdraws an amount at the share price with the fee on profit, across lots bought at different prices', async () => {
    const { pool, manager } = await seedPool({ seed: '10000', fee: '0.1000' });
    const user = await seedUser({ balance: '3000' });
    const t0 = Date.now();
    setFixedTime(new Date(t0));
    await invest(user, manager.id, { action: 'deposit', amount: 1000 }); // 1000 shares at 1
    await windfall(pool, '2200'); // 13,200 / 11,000: 1.2
    setFixedTime(new Date(t0 + 1000));
    await invest(user, manager.id, { action: 'deposit', amount: 1200 }); // 1000 shares at 1.2
    setFixedTime(new Date(t0 + 2000));
    const parties = partiesOf(pool, user);
    const total = await totalBalance(parties);
    // 1440 at 1.2 = 1200 shares: the whole first lot (pnl 200, fee 20) and 200 of the second (pnl 0).
    const out = await invest(user, manager.id, { action: 'withdraw', amount: 1440 });
    expect(out.status).toBe(200);
    expect(out.body.transaction).toMatchObject({ amount: 1440, shares: 1200, sharePrice: 1.2, pnl: 200, performanceFee: 20 });
    expect(out.body.newBalance).toBe(String(3000 - 2200 + 1420));
    expect(await balanceOf(manager.id)).toEqual(dec(20));
    expect(await totalBalance(parties)).toEqual(total);
    await expectPoolBooks([pool.id]);
  });

  it('answers 404 for an unknown actor, an actor without a pool and a player; 400 for a bad action or amount; 401 without a token', async () => {
    const user = await seedUser({ balance: '100' });
    const noPool = await seedUser({ isActor: true, balance: '0' });
    const player = await seedUser({ balance: '0' });
    for (const actorId of ['no-such-actor', noPool.id, noPool.username, player.id]) {
      const res = await invest(user, actorId, { action: 'deposit', amount: 10 });
      expect(res.status, actorId).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    const seeded = await invest(user, 'actor-marcus_reed', { action: 'hold', amount: 10 });
    expect(seeded.status).toBe(400);
    expect(seeded.body.error.code).toBe('VALIDATION_ERROR');
    for (const amount of [0.5, '0.5', 0]) {
      const res = await invest(user, 'actor-marcus_reed', { action: 'deposit', amount });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('INVALID_TRADE_SIZE');
    }
    const broke = await invest(user, 'marcus_reed', { action: 'deposit', amount: 101 });
    expect(broke.status).toBe(400);
    expect(broke.body.error.code).toBe('INSUFFICIENT_BALANCE');
    const nothingHeld = await invest(user, 'actor-marcus_reed', { action: 'withdraw', amount: 10 });
    expect(nothingHeld.status).toBe(400);
    expect(nothingHeld.body.error).toMatchObject({ code: 'INSUFFICIENT_SHARES', details: { available: 0 } });
    const anon = await call(investRoute, '/api/npc/actor-marcus_reed/invest', { method: 'POST', params: { actorId: 'actor-marcus_reed' }, body: { action: 'deposit', amount: 10 } });
    expect(anon.status).toBe(401);
    expect(await balanceOf(user.id)).toEqual(dec(100));
    // The seeded pool by its manager's username.
    const ok = await invest(user, 'Marcus_Reed', { action: 'deposit', amount: 10 });
    expect(ok.status).toBe(200);
    expect(ok.body.transaction.poolId).toBe('seed-pool-1');
  });
});

describe('GET /api/npc/{actorId}/portfolio', () => {
  it("lists the pool's positions with ticker, shares, value and pnl; its totalValue is the pool's", async () => {
    const { pool, manager } = await seedPool({ seed: '10000' });
    const viewer = await seedUser();
    const perp = await openPoolPerp({ poolId: pool.id, ticker: 'KLDR', side: 'long', size: '2000', leverage: '4' });
    expect(perp.ok).toBe(true);
    expect((await buyPoolPrediction({ poolId: pool.id, marketId: 'seed-q-2', outcome: 'NO', amount: '300' })).ok).toBe(true);
    await setPrice('KLDR', 105);

    const res = await portfolio(viewer, manager.id);
    expect(res.status).toBe(200);
    const pf = res.body.portfolio;
    const d = (await detail(pool.id)).body;
    expect(pf).toMatchObject({ actorId: manager.id, poolId: pool.id, totalValue: d.pool.totalValue, cash: d.pool.cash });
    expect(pf.positions).toHaveLength(2);
    const p = pf.positions.find((x: { kind: string }) => x.kind === 'perp');
    expect(p).toMatchObject({ ticker: 'KLDR', side: 'long', marketId: null, shares: d.positions.perps[0].units, value: d.positions.perps[0].value, pnl: d.positions.perps[0].unrealizedPnL });
    expect(p.pnl).toBeGreaterThan(0);
    const q = pf.positions.find((x: { kind: string }) => x.kind === 'prediction');
    expect(q).toMatchObject({ ticker: 'Q2', side: 'NO', marketId: 'seed-q-2', shares: d.positions.predictions[0].shares, value: d.positions.predictions[0].value });
    expect(q.pnl).toBeCloseTo(q.value - 300, 8);
    const sum = pf.positions.reduce((s: number, x: { value: number }) => s + x.value, pf.cash);
    expect(sum).toBeCloseTo(pf.totalValue, 6);
    expect(pf.totalValue).toBeCloseTo(num(await navFromRows(pool.id)), 6);

    const byName = await portfolio(viewer, 'marcus_reed');
    expect(byName.status).toBe(200);
    expect(byName.body.portfolio).toMatchObject({ actorId: 'actor-marcus_reed', poolId: 'seed-pool-1' });
    expect(byName.body.portfolio.totalValue).toBe((await detail('seed-pool-1')).body.pool.totalValue);
    await setPrice('KLDR', 99.99);
  });

  it('answers 401 without a token and 404 for an unknown actor or one without a pool', async () => {
    const viewer = await seedUser();
    const anon = await call(portfolioRoute, '/api/npc/actor-marcus_reed/portfolio', { params: { actorId: 'actor-marcus_reed' } });
    expect(anon.status).toBe(401);
    const noPool = await seedUser({ isActor: true, balance: '0' });
    for (const actorId of ['no-such-actor', noPool.id, viewer.id]) {
      const res = await portfolio(viewer, actorId);
      expect(res.status, actorId).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
  });
});

describe('money across a scenario with no trading', () => {
  it('conserves the sum of balances of players, the pool account and the manager through deposits, withdrawals and fees', async () => {
    const { pool, manager } = await seedPool({ seed: '20000', fee: '0.3000' });
    const players = await Promise.all([seedUser({ balance: '4000' }), seedUser({ balance: '2500' }), seedUser({ balance: '777.77' })]);
    const [p1, p2, p3] = players as [TUserRow, TUserRow, TUserRow];
    const parties = partiesOf(pool, ...players);
    const start = await totalBalance(parties);
    const check = async () => {
      expect((await totalBalance(parties)).toFixed()).toBe(start.toFixed());
      await expectLedgerChain(parties);
      await expectPoolBooks([pool.id]);
    };
    const l1 = (await deposit(p1, pool.id, 3000)).body.deposit;
    const l2 = (await deposit(p2, pool.id, '1234.56789')).body.deposit;
    await check();
    const gain = await windfall(pool, '2469.13578'); // outside money: the start moves with it
    const shifted = start.plus('2469.13578');
    expect(gain.balanceAfter.gt(0)).toBe(true);
    const l3 = (await invest(p3, manager.id, { action: 'deposit', amount: '777.77' })).body.transaction;
    expect((await totalBalance(parties)).toFixed()).toBe(shifted.toFixed());
    const partial = await withdraw(p1, pool.id, l1.id, 1111.111111);
    expect(partial.status).toBe(200);
    expect(partial.body.withdrawal.performanceFee).toBeGreaterThan(0);
    expect((await totalBalance(parties)).toFixed()).toBe(shifted.toFixed());
    expect((await withdraw(p2, pool.id, l2.id, l2.shares)).status).toBe(200);
    expect((await invest(p3, manager.id, { action: 'withdraw', amount: 100 })).status).toBe(200);
    expect((await withdraw(p1, pool.id, l1.id, (await lotRow(l1.id)).remainingShares)).status).toBe(200);
    expect((await withdraw(p3, pool.id, l3.id, (await lotRow(l3.id)).remainingShares)).status).toBe(200);
    expect((await totalBalance(parties)).toFixed()).toBe(shifted.toFixed());
    await expectLedgerChain(parties);
    await expectPoolBooks([pool.id]);
    // Only the seed is left; the pool is worth what it started with plus the windfall's share left with it.
    const left = await poolRow(pool.id);
    expect(dec(left.totalShares).toNumber()).toBe(20000);
    const fees = await balanceOf(manager.id);
    expect(fees.gt(0)).toBe(true);
  });
});

describe('invariants after everything above', () => {
  it('the ledger chain holds for every user, and every pool’s books balance', async () => {
    await expectLedgerChain();
    const checked = await expectPoolBooks();
    expect(checked.length).toBeGreaterThan(15);
    const [neg] = await (await db()).select({ n: sql<number>`count(*)::int` }).from(users).where(sql`${users.virtualBalance} < 0`);
    expect(Number(neg!.n)).toBe(0);
  });
});
