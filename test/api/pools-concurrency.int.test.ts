/**
 * Trading pools under concurrent requests. On PostgreSQL these are real races (each request its
 * own connection and transaction; the pool row lock, then the lot lock, must serialise them); on
 * PGlite they run one at a time and must give the same answers. After each: exactly-once effects,
 * the ledger chain, and the pool's books (totalShares = the lots' remaining shares, NAV = cash +
 * positions recomputed from the rows).
 */
import { asc, eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST as investRoute } from '@/app/api/npc/[actorId]/invest/route';
import { GET as portfolioRoute } from '@/app/api/npc/[actorId]/portfolio/route';
import { POST as depositRoute } from '@/app/api/pools/[id]/deposit/route';
import { GET as detailRoute } from '@/app/api/pools/[id]/route';
import { POST as withdrawRoute } from '@/app/api/pools/[id]/withdraw/route';
import { getDb, withTransaction } from '@/db/client';
import { balanceTransactions, perpPositions, poolDeposits, pools, poolWithdrawals, users, type TPoolRow, type TUserRow } from '@/db/schema';
import { credit } from '@/lib/ledger/ledger';
import { dec } from '@/lib/money/decimal';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { buyPoolPrediction, closePoolPerp, openPoolPerp, type TPoolTradeResult } from '@/lib/pools/service/trade';
import { seedWorld } from '@/lib/world/seed/world';
import { seedPool, seedUser } from '@/test/factories';
import { call, tokenFor, type TCallResult } from '@/test/http';
import { expectLedgerChain, expectPoolBooks, navFromRows, totalBalance } from '@/test/invariants';

beforeAll(async () => {
  await seedWorld(await getDb());
});

beforeEach(() => {
  setLimiter(createMemoryLimiter());
});

const tokens = new Map<string, string>();
const tokenOf = async (user: TUserRow) => {
  let t = tokens.get(user.id);
  if (!t) tokens.set(user.id, (t = await tokenFor(user)));
  return t;
};
const deposit = async (user: TUserRow, poolId: string, amount: unknown) =>
  call(depositRoute, `/api/pools/${poolId}/deposit`, { method: 'POST', token: await tokenOf(user), params: { id: poolId }, body: { amount } });
const withdraw = async (user: TUserRow, poolId: string, depositId: string, shares: unknown) =>
  call(withdrawRoute, `/api/pools/${poolId}/withdraw`, { method: 'POST', token: await tokenOf(user), params: { id: poolId }, body: { depositId, shares } });
const invest = async (user: TUserRow, actorId: string, body: Record<string, unknown>) =>
  call(investRoute, `/api/npc/${actorId}/invest`, { method: 'POST', token: await tokenOf(user), params: { actorId }, body });

const db = async () => getDb();
const balanceOf = async (userId: string) => {
  const [u] = await (await db()).select().from(users).where(eq(users.id, userId));
  return dec(u!.virtualBalance);
};
const ledgerOf = async (userId: string) =>
  (await db()).select().from(balanceTransactions).where(eq(balanceTransactions.userId, userId)).orderBy(asc(balanceTransactions.seq));
const windfall = async (pool: TPoolRow, amount: string) =>
  withTransaction((tx) => credit(tx, { userId: pool.accountUserId, amount, type: 'bonus', description: 'Test windfall' }));
const partiesOf = (pool: TPoolRow, ...players: TUserRow[]) => [pool.accountUserId, pool.npcActorId, ...players.map((p) => p.id)];
const codes = (results: TCallResult[]) => results.map((r) => (r.status === 200 ? 200 : `${r.status} ${r.body.error?.code}`));

describe('parallel withdrawals of one lot', () => {
  it('10 parallel withdrawals of the whole lot: exactly one is paid, once; the rest are INSUFFICIENT_SHARES', async () => {
    const { pool, manager } = await seedPool({ seed: '10000', fee: '0.2000' });
    const user = await seedUser({ balance: '1000' });
    const d = await deposit(user, pool.id, 1000);
    expect(d.status).toBe(200);
    await windfall(pool, '1100'); // 12,100 over 11,000: 1.1; the lot is worth 1,100 (pnl 100, fee 20)
    const parties = partiesOf(pool, user);
    const total = await totalBalance(parties);

    const results = await Promise.all(Array.from({ length: 10 }, () => withdraw(user, pool.id, d.body.deposit.id, 1000)));
    const ok = results.filter((r) => r.status === 200);
    expect(ok, JSON.stringify(codes(results))).toHaveLength(1);
    expect(results.filter((r) => r.status === 400 && r.body.error.code === 'INSUFFICIENT_SHARES')).toHaveLength(9);
    expect(ok[0]!.body.withdrawal).toMatchObject({ shares: 1000, value: 1100, pnl: 100, performanceFee: 20, netAmount: 1080, remainingShares: 0 });

    expect(await balanceOf(user.id)).toEqual(dec(1080));
    expect((await ledgerOf(user.id)).filter((r) => r.type === 'pool_withdraw')).toHaveLength(1);
    expect((await ledgerOf(pool.accountUserId)).filter((r) => r.type === 'pool_withdraw')).toHaveLength(1);
    expect(await balanceOf(manager.id)).toEqual(dec(20));
    expect(await (await db()).select().from(poolWithdrawals).where(eq(poolWithdrawals.depositId, d.body.deposit.id))).toHaveLength(1);
    expect(await totalBalance(parties)).toEqual(total);
    await expectLedgerChain(parties);
    await expectPoolBooks([pool.id]);
  });

  it('the route and NPC invest racing on one lot never take more shares than it holds', async () => {
    const { pool, manager } = await seedPool({ seed: '10000', fee: '0.1000' });
    const user = await seedUser({ balance: '1000' });
    const d = await deposit(user, pool.id, 1000);
    await windfall(pool, '550'); // 11,550 / 11,000: 1.05
    const parties = partiesOf(pool, user);
    const total = await totalBalance(parties);

    const results = await Promise.all([
      ...Array.from({ length: 4 }, () => withdraw(user, pool.id, d.body.deposit.id, 700)),
      ...Array.from({ length: 4 }, () => invest(user, manager.id, { action: 'withdraw', amount: 420 })), // 400 shares
      ...Array.from({ length: 2 }, () => withdraw(user, pool.id, d.body.deposit.id, 1000)),
    ]);
    for (const r of results) expect([200, 400], JSON.stringify(r.body)).toContain(r.status);
    for (const r of results.filter((x) => x.status === 400)) expect(r.body.error.code).toBe('INSUFFICIENT_SHARES');
    const taken = await (await db()).select().from(poolWithdrawals).where(eq(poolWithdrawals.depositId, d.body.deposit.id));
    const sharesTaken = taken.reduce((s, w) => s.plus(w.shares), dec(0));
    expect(sharesTaken.lte(1000)).toBe(true);
    expect(taken.length).toBeGreaterThanOrEqual(1);
    expect(results.filter((r) => r.status === 200).length).toBe(taken.length);
    const [lot] = await (await db()).select().from(poolDeposits).where(eq(poolDeposits.id, d.body.deposit.id));
    const left = dec(lot!.remainingShares);
    expect(left.toFixed()).toBe(dec(1000).minus(sharesTaken).toFixed());
    // Whatever the order, a refusal asked for more than was left then, and so more than is left now.
    const asked = [700, 700, 700, 700, 400, 400, 400, 400, 1000, 1000];
    for (const [i, r] of results.entries()) if (r.status === 400) expect(left.lt(asked[i]! - 1e-6), `request ${i}`).toBe(true);
    expect(await totalBalance(parties)).toEqual(total);
    await expectLedgerChain(parties);
    await expectPoolBooks([pool.id]);
  });
});

describe('parallel deposits', () => {
  it('20 parallel deposits by a user whose balance covers 5: exactly 5 succeed, the balance never goes negative', async () => {
    const { pool } = await seedPool({ seed: '10000' });
    await windfall(pool, '1000'); // 11,000 / 10,000: 1.1
    const user = await seedUser({ balance: '500' });
    const results = await Promise.all(Array.from({ length: 20 }, () => deposit(user, pool.id, 100)));
    const ok = results.filter((r) => r.status === 200);
    expect(ok, JSON.stringify(codes(results))).toHaveLength(5);
    expect(results.filter((r) => r.status === 400 && r.body.error.code === 'INSUFFICIENT_BALANCE')).toHaveLength(15);
    expect(await balanceOf(user.id)).toEqual(dec(0));
    const rows = await ledgerOf(user.id);
    expect(rows.every((r) => !dec(r.balanceAfter).isNegative())).toBe(true);
    expect(rows.filter((r) => r.type === 'pool_deposit')).toHaveLength(5);

    const lots = await (await db()).select().from(poolDeposits).where(eq(poolDeposits.userId, user.id));
    expect(lots).toHaveLength(5);
    const shares = lots.reduce((s, l) => s.plus(l.shares), dec(0));
    expect(ok.reduce((s, r) => s + r.body.deposit.shares, 0)).toBeCloseTo(shares.toNumber(), 9);
    for (const l of lots) expect(dec(l.shares).minus(dec(100).div('1.1')).abs().toNumber()).toBeLessThan(1e-9);
    const [p] = await (await db()).select().from(pools).where(eq(pools.id, pool.id));
    expect(dec(p!.totalShares).minus(10000).toFixed()).toBe(shares.toFixed());
    await expectLedgerChain([user.id, pool.accountUserId]);
    await expectPoolBooks([pool.id]);
  });

  it('many players depositing and withdrawing at once: every price is the same share price, money is conserved', async () => {
    const { pool, manager } = await seedPool({ seed: '10000', fee: '0.2000' });
    const holders = await Promise.all(Array.from({ length: 6 }, () => seedUser({ balance: '2000' })));
    const newcomers = await Promise.all(Array.from({ length: 6 }, () => seedUser({ balance: '2000' })));
    const lots: string[] = [];
    for (const h of holders) lots.push((await deposit(h, pool.id, 1500)).body.deposit.id);
    await windfall(pool, '3800'); // 22,800 / 19,000: 1.2
    const price = dec('1.2');
    const parties = partiesOf(pool, ...holders, ...newcomers);
    const total = await totalBalance(parties);

    const results = await Promise.all([
      ...holders.map((h, i) => withdraw(h, pool.id, lots[i]!, i % 2 ? 1500 : 700)),
      ...newcomers.map((n, i) => (i % 2 ? deposit(n, pool.id, 1000 + i) : invest(n, manager.id, { action: 'deposit', amount: 1000 + i }))),
      invest(holders[0]!, manager.id, { action: 'withdraw', amount: 500 }),
    ]);
    expect(codes(results).every((c) => c === 200), JSON.stringify(codes(results))).toBe(true);
    // No trading: each flow priced at the same share price (rounding only ever nudges it up, by a hair).
    const prices = results.map((r) => r.body.withdrawal?.sharePrice ?? r.body.deposit?.sharePrice ?? r.body.transaction.sharePrice);
    for (const p of prices) {
      expect(p).toBeGreaterThanOrEqual(price.toNumber() - 1e-12);
      expect(p - price.toNumber()).toBeLessThan(1e-9);
    }
    expect(await totalBalance(parties)).toEqual(total);
    await expectLedgerChain(parties);
    await expectPoolBooks([pool.id]);
  });
});

describe("withdrawals racing the manager's trades", () => {
  it('after rounds of withdrawals, deposits, opens, closes and a buy at once, the books and the NAV hold', async () => {
    const { pool, manager } = await seedPool({ seed: '20000', fee: '0.2000' });
    const player = await seedUser({ balance: '10000' });
    const other = await seedUser({ balance: '5000' });
    const lots: string[] = [];
    for (let i = 0; i < 6; i++) lots.push((await deposit(player, pool.id, 1000)).body.deposit.id);
    const parties = partiesOf(pool, player, other);
    const results: { kind: 'withdraw' | 'deposit' | 'invest'; r: TCallResult }[] = [];
    const flow = async (kind: 'withdraw' | 'deposit' | 'invest', p: Promise<TCallResult>) => {
      const r = await p;
      results.push({ kind, r });
      return r;
    };
    const trades: { kind: string; r: TPoolTradeResult }[] = [];
    const trade = async (kind: string, p: Promise<TPoolTradeResult>) => {
      const r = await p;
      trades.push({ kind, r });
      return r;
    };

    for (let round = 0; round < 3; round++) {
      setLimiter(createMemoryLimiter());
      const first = await openPoolPerp({ poolId: pool.id, ticker: 'ORBT', side: 'long', size: '4000', leverage: '4' });
      expect(first.ok).toBe(true);
      const [a, b] = [lots[round * 2]!, lots[round * 2 + 1]!];
      const batch = await Promise.all<unknown>([
        flow('withdraw', withdraw(player, pool.id, a, 1000)),
        flow('withdraw', withdraw(player, pool.id, b, 400)),
        trade('open', openPoolPerp({ poolId: pool.id, ticker: 'ORBT', side: 'long', size: '3000', leverage: '3' })),
        trade('close', closePoolPerp({ poolId: pool.id, positionId: first.id!, ticker: 'ORBT' })),
        flow('withdraw', withdraw(player, pool.id, b, 300)),
        trade('open', openPoolPerp({ poolId: pool.id, ticker: 'VRSE', side: 'short', size: '2000', leverage: '2' })),
        trade('close', closePoolPerp({ poolId: pool.id, positionId: first.id!, ticker: 'ORBT' })),
        flow('deposit', deposit(other, pool.id, 700)),
        trade('buy', buyPoolPrediction({ poolId: pool.id, marketId: 'seed-q-5', outcome: 'NO', amount: '150' })),
        flow('invest', invest(other, manager.id, { action: 'withdraw', amount: 200 })),
      ]);
      expect(batch).toHaveLength(10);
      // One of the two closes of the same position closed it.
      const closes = trades.slice(-5).filter((t) => t.kind === 'close');
      expect(closes.filter((t) => t.r.ok)).toHaveLength(1);
    }
    // The pool's cash covers every withdrawal (its positions are small): all paid, none refused,
    // but for the second player's withdrawal by amount, which may run before its first deposit.
    const refused = results.filter((x) => x.r.status !== 200);
    for (const x of refused) expect(`${x.kind} ${x.r.body.error.code}`).toBe('invest INSUFFICIENT_SHARES');
    expect(refused.length).toBeLessThanOrEqual(1);
    expect(results).toHaveLength(15);
    expect(trades.filter((t) => t.kind === 'open').every((t) => t.r.ok)).toBe(true);
    expect(trades.filter((t) => t.kind === 'buy').every((t) => t.r.ok)).toBe(true);

    // The books: shares, flows, ledger legs, and the NAV recomputed from the rows.
    await expectPoolBooks([pool.id]);
    await expectLedgerChain(parties);
    const detail = await call(detailRoute, `/api/pools/${pool.id}`, { params: { id: pool.id } });
    const nav = await navFromRows(pool.id);
    expect(detail.body.pool.totalValue).toBeCloseTo(nav.toNumber(), 6);
    expect(detail.body.pool.cash + detail.body.pool.positionsValue).toBeCloseTo(detail.body.pool.totalValue, 6);
    const pf = await call(portfolioRoute, `/api/npc/${manager.id}/portfolio`, { token: await tokenOf(player), params: { actorId: manager.id } });
    expect(pf.body.portfolio.totalValue).toBe(detail.body.pool.totalValue);
    const open = await (await db()).select().from(perpPositions).where(eq(perpPositions.userId, pool.accountUserId));
    expect(detail.body.positions.perps).toHaveLength(open.filter((p) => p.status === 'open').length);
    // Each player's balance is what they put in and took out, nothing else.
    const flows = async (u: TUserRow) => {
      const rows = await ledgerOf(u.id);
      return rows.filter((r) => r.type === 'pool_deposit' || r.type === 'pool_withdraw').reduce((s, r) => s.plus(r.amount), dec(0));
    };
    expect((await balanceOf(player.id)).toFixed()).toBe(dec(10000).plus(await flows(player)).toFixed());
    expect((await balanceOf(other.id)).toFixed()).toBe(dec(5000).plus(await flows(other)).toFixed());
  });

  it('a withdrawal that must close the perp races the manager closing it: closed once, paid once', async () => {
    const { pool } = await seedPool({ seed: '10000' });
    const player = await seedUser({ balance: '5000' });
    const d = await deposit(player, pool.id, 5000);
    const perp = await openPoolPerp({ poolId: pool.id, ticker: 'HELX', side: 'short', size: '26000', leverage: '2' });
    expect(perp.ok).toBe(true);
    const [w, c1, c2] = await Promise.all([
      withdraw(player, pool.id, d.body.deposit.id, 5000),
      closePoolPerp({ poolId: pool.id, positionId: perp.id!, ticker: 'HELX' }),
      closePoolPerp({ poolId: pool.id, positionId: perp.id!, ticker: 'HELX' }),
    ]);
    expect(w.status, JSON.stringify(w.body)).toBe(200);
    // The withdrawal closed it, or one of the manager's closes did: once in all.
    expect([c1.ok, c2.ok].filter(Boolean).length).toBeLessThanOrEqual(1);
    const closes = (await ledgerOf(pool.accountUserId)).filter((r) => r.type === 'perp_close');
    expect(closes).toHaveLength(1);
    expect((await ledgerOf(player.id)).filter((r) => r.type === 'pool_withdraw')).toHaveLength(1);
    await expectLedgerChain(partiesOf(pool, player));
    await expectPoolBooks([pool.id]);
  });
});
