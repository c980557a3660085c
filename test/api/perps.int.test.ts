import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST as adminPriceRoute } from '@/app/api/admin/perps/[ticker]/price/route';
import { POST as tickRoute } from '@/app/api/cron/game-tick/route';
import { GET as positionsRoute } from '@/app/api/markets/positions/[userId]/route';
import { POST as closeRoute } from '@/app/api/markets/perps/[positionId]/close/route';
import { POST as openRoute } from '@/app/api/markets/perps/open/route';
import { POST as closeByBodyRoute } from '@/app/api/markets/perps/position/route';
import { POST as closeVariantRoute } from '@/app/api/markets/perps/position/[positionId]/close/route';
import { GET as myPositionsRoute } from '@/app/api/markets/perps/positions/route';
import { GET as listRoute } from '@/app/api/markets/perps/route';
import { GET as historyRoute } from '@/app/api/markets/perps/tickers/[ticker]/history/route';
import { GET as tradesRoute } from '@/app/api/trades/route';
import { getDb, rowsOf } from '@/db/client';
import { balanceTransactions, notifications, organizations, perpFundingPayments, perpMarkets, perpPositions, users, type TUserRow } from '@/db/schema';
import { seedUser } from '@/test/factories';
import { seedWorld } from '@/lib/world/seed/world';
import { resetClock } from '@/lib/clock/clock';
import { env, resetEnvCache } from '@/lib/env';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { dec } from '@/lib/money/decimal';
import { fundingPayment, fundingRate, quoteClose, quoteOpen } from '@/lib/perps/math';
import { call, tokenFor } from '@/test/http';

beforeAll(async () => {
  await seedWorld(await getDb());
});

beforeEach(() => {
  setLimiter(createMemoryLimiter());
});

let admin: TUserRow;
const adminToken = async () => {
  admin ??= await seedUser({ isAdmin: true, balance: '0' });
  return tokenFor(admin);
};

const open = async (user: TUserRow, body: Record<string, unknown>) =>
  call(openRoute, '/api/markets/perps/open', { method: 'POST', token: await tokenFor(user), body });
const close = async (user: TUserRow, positionId: string) =>
  call(closeRoute, `/api/markets/perps/${positionId}/close`, { method: 'POST', token: await tokenFor(user), params: { positionId } });
const setPrice = async (ticker: string, price: number) =>
  call(adminPriceRoute, `/api/admin/perps/${ticker}/price`, { method: 'POST', token: await adminToken(), params: { ticker }, body: { price } });
const balanceOf = async (userId: string) => {
  const [u] = await (await getDb()).select().from(users).where(eq(users.id, userId));
  return dec(u!.virtualBalance);
};
const market = async (ticker: string) => {
  const [m] = await (await getDb()).select().from(perpMarkets).where(eq(perpMarkets.ticker, ticker));
  return m!;
};
const ledgerOf = async (userId: string) =>
  (await getDb()).select().from(balanceTransactions).where(eq(balanceTransactions.userId, userId)).orderBy(balanceTransactions.createdAt);

describe('GET /api/markets/perps', () => {
  it('lists one ticker per organization with every field, both names of the price', async () => {
    const res = await call(listRoute, '/api/markets/perps');
    expect(res.status).toBe(200);
    expect(res.body.tickers).toHaveLength(8);
    expect(res.body.markets).toEqual(res.body.tickers);
    const nexa = res.body.tickers.find((t: { ticker: string }) => t.ticker === 'NEXA');
    expect(nexa).toMatchObject({ organizationId: 'org-nexa', name: 'Nexa Dynamics', price: nexa.currentPrice, indexPrice: 142.5 });
    for (const k of ['change24h', 'changePercent24h', 'volume24h', 'fundingRate', 'openInterest']) expect(typeof nexa[k]).toBe('number');
    expect(nexa.depth).toBe(5_000_000);
  });

  it('answers the history of a ticker and 404 for an unknown one', async () => {
    const res = await call(historyRoute, '/api/markets/perps/tickers/QBIT/history', { params: { ticker: 'qbit' }, query: { range: 'all' } });
    expect(res.status).toBe(200);
    expect(res.body.history.length).toBeGreaterThan(0);
    expect(res.body.history[0]).toMatchObject({ source: 'seed', markPrice: 88.2 });
    const missing = await call(historyRoute, '/api/markets/perps/tickers/NOPE/history', { params: { ticker: 'NOPE' } });
    expect(missing.status).toBe(404);
  });
});

describe('POST /api/markets/perps/open', () => {
  it('debits margin plus fee, fills after its own impact and reports the position with both names', async () => {
    const user = await seedUser({ balance: '10000' });
    const before = await market('HELX');
    const res = await open(user, { ticker: 'helx', side: 'long', size: 1000, leverage: 10 });
    expect(res.status).toBe(200);
    const q = quoteOpen({ side: 'long', size: 1000, leverage: 10, markPrice: before.markPrice, depth: before.depth });
    const p = res.body.position;
    expect(p).toMatchObject({ ticker: 'HELX', side: 'long', size: 1000, leverage: 10, margin: 100, collateral: 100, status: 'open' });
    expect(p.entryPrice).toBe(q.entryPrice.toNumber());
    expect(p.liquidationPrice).toBe(q.liquidationPrice.toNumber());
    expect(p.markPrice).toBe(p.currentPrice);
    expect(res.body.fee).toBe(1);
    expect(res.body.newBalance).toBe('9899');
    expect((await balanceOf(user.id)).toFixed()).toBe('9899');
    expect((await market('HELX')).markPrice).toBe(q.entryPrice.toFixed(18));
    const rows = await ledgerOf(user.id);
    expect(rows.at(-1)).toMatchObject({ type: 'perp_open', amount: '-101.00000000', balanceAfter: '9899.00000000' });
  });

  it('accepts amount for size and a short side', async () => {
    const user = await seedUser({ balance: '1000' });
    const res = await open(user, { ticker: 'SOLR', side: 'SHORT', amount: 200, leverage: 2 });
    expect(res.status).toBe(200);
    expect(res.body.position).toMatchObject({ side: 'short', size: 200, margin: 100 });
  });

  it('refuses bad leverage, side, size or ticker with VALIDATION_ERROR, no token with 401, and changes nothing', async () => {
    const user = await seedUser({ balance: '1000' });
    for (const body of [
      { ticker: 'NEXA', side: 'long', size: 100, leverage: 0 },
      { ticker: 'NEXA', side: 'long', size: 100, leverage: 101 },
      { ticker: 'NEXA', side: 'up', size: 100, leverage: 2 },
      { ticker: 'NEXA', side: 'long', size: 0, leverage: 2 },
      { ticker: 'NEXA', side: 'long', leverage: 2 },
      { ticker: 'NOPE', side: 'long', size: 100, leverage: 2 },
    ]) {
      const res = await open(user, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    const anon = await call(openRoute, '/api/markets/perps/open', { method: 'POST', body: { ticker: 'NEXA', side: 'long', size: 100, leverage: 2 } });
    expect(anon.status).toBe(401);
    expect((await balanceOf(user.id)).toFixed()).toBe('1000');
  });

  it('refuses an order above the balance with INSUFFICIENT_BALANCE and writes nothing', async () => {
    const user = await seedUser({ balance: '50' });
    const res = await open(user, { ticker: 'NEXA', side: 'long', size: 1000, leverage: 10 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INSUFFICIENT_BALANCE', details: { required: '101', available: '50' } });
    const db = await getDb();
    expect(await db.select().from(perpPositions).where(eq(perpPositions.userId, user.id))).toHaveLength(0);
    expect((await balanceOf(user.id)).toFixed()).toBe('50');
  });

  it('never overdraws under parallel opens', async () => {
    const user = await seedUser({ balance: '1000' });
    const results = await Promise.all(Array.from({ length: 15 }, () => open(user, { ticker: 'MNTL', side: 'long', size: 1000, leverage: 10 })));
    const ok = results.filter((r) => r.status === 200).length;
    expect(ok).toBe(9); // 9 × 101 = 909 ≤ 1000 < 10 × 101
    expect(results.filter((r) => r.status === 400).every((r) => r.body.error.code === 'INSUFFICIENT_BALANCE')).toBe(true);
    expect((await balanceOf(user.id)).toFixed()).toBe('91');
  });
});

describe('closing a position', () => {
  it('credits max(0, margin + PnL − fee) as perp_close and answers every close field', async () => {
    const user = await seedUser({ balance: '5000' });
    const opened = await open(user, { ticker: 'VRSE', side: 'long', size: 2000, leverage: 4 });
    const id = opened.body.position.id as string;
    const [row] = await (await getDb()).select().from(perpPositions).where(eq(perpPositions.id, id));
    const m = await market('VRSE');
    const expected = quoteClose(row!, m.markPrice, m.depth);
    const res = await close(user, id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      positionId: id,
      exitPrice: expected.exitPrice.toNumber(),
      realizedPnL: expected.realizedPnL.toNumber(),
      fundingPaid: 0,
      netPnL: expected.netPnL.toNumber(),
      fee: expected.fee.toNumber(),
    });
    expect(res.body.netPnL).toBeLessThan(0); // open and close at once never makes money
    expect(res.body.position.status).toBe('closed');
    expect(typeof res.body.closedAt).toBe('string');
    const after = dec(opened.body.newBalance).plus(expected.closeCredit);
    expect(res.body.newBalance).toBe(after.toFixed());
    const rows = await ledgerOf(user.id);
    expect(rows.at(-1)).toMatchObject({ type: 'perp_close', amount: expected.closeCredit.toFixed(8) });
    expect(rows.some((r) => r.type === 'funding_paid')).toBe(false);
  });

  it('works through the two variant forms, once: a second close is POSITION_CLOSED', async () => {
    const user = await seedUser({ balance: '5000' });
    const a = (await open(user, { ticker: 'KLDR', side: 'short', size: 500, leverage: 5 })).body.position.id as string;
    const b = (await open(user, { ticker: 'KLDR', side: 'long', size: 500, leverage: 5 })).body.position.id as string;
    const token = await tokenFor(user);
    const viaPath = await call(closeVariantRoute, `/api/markets/perps/position/${a}/close`, { method: 'POST', token, params: { positionId: a } });
    expect(viaPath.status).toBe(200);
    expect(viaPath.body).toMatchObject({ positionId: a, realizedPnL: expect.any(Number), closedAt: expect.any(String) });
    const viaBody = await call(closeByBodyRoute, '/api/markets/perps/position', { method: 'POST', token, body: { positionId: b } });
    expect(viaBody.status).toBe(200);
    const again = await close(user, a);
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('POSITION_CLOSED');
    const missingBody = await call(closeByBodyRoute, '/api/markets/perps/position', { method: 'POST', token, body: {} });
    expect(missingBody.status).toBe(400);
  });

  it("refuses someone else's position (403) and an unknown one (404)", async () => {
    const owner = await seedUser({ balance: '1000' });
    const other = await seedUser({ balance: '1000' });
    const id = (await open(owner, { ticker: 'ORBT', side: 'long', size: 100, leverage: 2 })).body.position.id as string;
    expect((await close(other, id)).status).toBe(403);
    expect((await close(other, 'no-such-position')).status).toBe(404);
  });

  it('closes once under five parallel closes: one success, one credit', async () => {
    const user = await seedUser({ balance: '1000' });
    const id = (await open(user, { ticker: 'NEXA', side: 'short', size: 300, leverage: 3 })).body.position.id as string;
    const token = await tokenFor(user);
    const results = await Promise.all([
      close(user, id),
      close(user, id),
      call(closeVariantRoute, `/api/markets/perps/position/${id}/close`, { method: 'POST', token, params: { positionId: id } }),
      call(closeByBodyRoute, '/api/markets/perps/position', { method: 'POST', token, body: { positionId: id } }),
      close(user, id),
    ]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400 && r.body.error.code === 'POSITION_CLOSED')).toHaveLength(4);
    const credits = (await ledgerOf(user.id)).filter((r) => r.type === 'perp_close');
    expect(credits).toHaveLength(1);
  });
});

describe('liquidation through the admin price', () => {
  it('liquidates exactly the positions the new mark reaches, loses their margin and notifies', async () => {
    const a = await seedUser({ balance: '1000' });
    const b = await seedUser({ balance: '1000' });
    await setPrice('QBIT', 100);
    const risky = (await open(a, { ticker: 'QBIT', side: 'long', size: 1000, leverage: 20 })).body.position;
    const safe = (await open(b, { ticker: 'QBIT', side: 'long', size: 100, leverage: 2 })).body.position;
    const balanceA = await balanceOf(a.id);
    // Just above the risky liquidation price: nothing happens.
    const above = await setPrice('QBIT', risky.liquidationPrice + 0.01);
    expect(above.body.liquidated).toBe(0);
    const res = await setPrice('QBIT', risky.liquidationPrice);
    expect(res.status).toBe(200);
    expect(res.body.liquidatedPositionIds).toEqual([risky.id]);
    expect(res.body.ticker.price).toBe(risky.liquidationPrice);
    const db = await getDb();
    const [row] = await db.select().from(perpPositions).where(eq(perpPositions.id, risky.id));
    expect(row).toMatchObject({ status: 'liquidated', netPnL: '-51.00000000' });
    expect((await balanceOf(a.id)).toFixed()).toBe(balanceA.toFixed());
    const [u] = await db.select().from(users).where(eq(users.id, a.id));
    expect(u!.lifetimePnL).toBe('-51.00000000');
    const notes = await db.select().from(notifications).where(eq(notifications.userId, a.id));
    expect(notes).toHaveLength(1);
    expect(notes[0]!.message).toMatch(/liquidated/);
    const [kept] = await db.select().from(perpPositions).where(eq(perpPositions.id, safe.id));
    expect(kept!.status).toBe('open');
    const closing = await close(a, risky.id);
    expect(closing.body.error.code).toBe('POSITION_CLOSED');
  });

  it('is for administrators only and knows its tickers', async () => {
    const player = await seedUser();
    const denied = await call(adminPriceRoute, '/api/admin/perps/NEXA/price', { method: 'POST', token: await tokenFor(player), params: { ticker: 'NEXA' }, body: { price: 1 } });
    expect(denied.status).toBe(403);
    expect((await setPrice('NOPE', 10)).status).toBe(404);
    const bad = await call(adminPriceRoute, '/api/admin/perps/NEXA/price', { method: 'POST', token: await adminToken(), params: { ticker: 'NEXA' }, body: { price: -5 } });
    expect(bad.status).toBe(400);
  });
});

describe('funding through the game tick and the test clock', () => {
  const tick = (now?: string) =>
    call(tickRoute, '/api/cron/game-tick', { method: 'POST', token: env().cronSecret, body: now ? { now } : {} });

  beforeEach(() => {
    process.env.ALLOW_TEST_CLOCK = '1';
    resetEnvCache();
  });
  afterEach(() => {
    delete process.env.ALLOW_TEST_CLOCK;
    resetEnvCache();
    resetClock();
  });

  it('pays every whole period once: three periods, three payments; the same time again, none', async () => {
    const db = await getDb();
    // Bring every ticker's funding up to date first, so only the new position's periods remain.
    await tick();
    const long = await seedUser({ balance: '10000' });
    const short = await seedUser({ balance: '10000' });
    await setPrice('ORBT', 200);
    const l = (await open(long, { ticker: 'ORBT', side: 'long', size: 2000, leverage: 5 })).body.position;
    const s = (await open(short, { ticker: 'ORBT', side: 'short', size: 2000, leverage: 5 })).body.position;
    const m = await market('ORBT');
    const [org] = await db.select().from(organizations).where(eq(organizations.ticker, 'ORBT'));
    const rate = fundingRate(m.markPrice, org!.currentPrice);
    const [lRow] = await db.select().from(perpPositions).where(eq(perpPositions.id, l.id));
    const [sRow] = await db.select().from(perpPositions).where(eq(perpPositions.id, s.id));
    const later = new Date(Date.now() + 24 * 3_600_000).toISOString();
    const first = await tick(later);
    expect(first.status).toBe(200);
    expect(first.body.funding.periods).toBeGreaterThanOrEqual(3);
    const paymentsOf = (id: string) => db.select().from(perpFundingPayments).where(eq(perpFundingPayments.positionId, id));
    expect(await paymentsOf(l.id)).toHaveLength(3);
    expect(await paymentsOf(s.id)).toHaveLength(3);
    const perLong = fundingPayment('long', lRow!.units, m.markPrice, rate);
    const [lAfter] = await db.select().from(perpPositions).where(eq(perpPositions.id, l.id));
    expect(lAfter!.fundingPaid).toBe(perLong.times(3).toFixed(8));
    expect(dec(lAfter!.collateral).toFixed()).toBe(dec(lRow!.margin).minus(perLong.times(3)).toFixed());
    const [sAfter] = await db.select().from(perpPositions).where(eq(perpPositions.id, s.id));
    expect(dec(sAfter!.fundingPaid).toFixed()).toBe(fundingPayment('short', sRow!.units, m.markPrice, rate).times(3).toFixed());

    const second = await tick(later);
    expect(second.body.funding.payments).toBe(0);
    expect(await paymentsOf(l.id)).toHaveLength(3);
    // Game time never moves backwards.
    const earlier = await tick(new Date(Date.now()).toISOString());
    expect(new Date(earlier.body.gameTime).getTime()).toBeGreaterThanOrEqual(new Date(later).getTime());

    // Closing settles the funding as a funding_paid row and reports it.
    const res = await close(long, l.id);
    expect(res.status).toBe(200);
    expect(res.body.fundingPaid).toBe(perLong.times(3).toNumber());
    const rows = await ledgerOf(long.id);
    const settlement = rows.find((r) => r.type === 'funding_paid');
    expect(settlement).toBeDefined();
    expect(dec(settlement!.amount).toFixed()).toBe(perLong.times(3).negated().toFixed());
    // Ledger chain: every row's balanceAfter = balanceBefore + amount, and the balance is the newest.
    for (const r of rows) expect(dec(r.balanceBefore).plus(r.amount).toFixed()).toBe(dec(r.balanceAfter).toFixed());
    expect((await balanceOf(long.id)).toFixed()).toBe(dec(res.body.newBalance).toFixed());
  });

  it('records a price point per ticker and per active question on each tick', async () => {
    const res = await tick();
    expect(res.body.pricePoints.perps).toBe(8);
    expect(res.body.pricePoints.questions).toBeGreaterThanOrEqual(0);
  });
});

describe('positions and trades include perps', () => {
  it('lists open perps with both names and totals; trades list opens and closes', async () => {
    const user = await seedUser({ balance: '3000' });
    const p = (await open(user, { ticker: 'SOLR', side: 'long', size: 600, leverage: 3 })).body.position;
    const token = await tokenFor(user);
    const res = await call(positionsRoute, `/api/markets/positions/${user.id}`, { token, params: { userId: user.id } });
    expect(res.status).toBe(200);
    expect(res.body.perps.map((x: { id: string }) => x.id)).toEqual([p.id]);
    expect(res.body.perpetuals).toEqual(res.body.perps);
    expect(res.body.totalPnL).toBe(res.body.totalUnrealizedPnL);
    expect(res.body.totalValue).toBeCloseTo(p.collateral + res.body.perps[0].unrealizedPnL, 6);
    const mine = await call(myPositionsRoute, '/api/markets/perps/positions', { token, query: { status: 'open' } });
    expect(mine.body.positions).toHaveLength(1);
    const onSolr = await call(myPositionsRoute, '/api/markets/perps/positions', { token, query: { status: 'open', ticker: 'solr' } });
    expect(onSolr.body.positions).toHaveLength(1);
    const onNexa = await call(myPositionsRoute, '/api/markets/perps/positions', { token, query: { status: 'open', ticker: 'NEXA' } });
    expect(onNexa.body.positions).toHaveLength(0);
    await close(user, p.id);
    const closed = await call(myPositionsRoute, '/api/markets/perps/positions', { token, query: { status: 'closed' } });
    expect(closed.body.positions[0]).toMatchObject({ id: p.id, status: 'closed' });
    const trades = await call(tradesRoute, '/api/trades', { token, query: { userId: user.id } });
    expect(trades.status).toBe(200);
    // Both trades, newest first (sorted here: the two may share a millisecond).
    expect(trades.body.trades.map((t: { action: string; type: string }) => `${t.type}:${t.action}`).sort()).toEqual(['perp:close', 'perp:open']);
    const times = trades.body.trades.map((t: { createdAt: string }) => t.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    const onlyPredictions = await call(tradesRoute, '/api/trades', { token, query: { userId: user.id, type: 'prediction' } });
    expect(onlyPredictions.body.trades).toHaveLength(0);
  });
});

describe('ledger invariant after all of the above', () => {
  it("every user's balance is the sum of their transaction rows", async () => {
    const db = await getDb();
    const bad = rowsOf(
      await db.execute(sql`
        select u.id from ${users} u
        where u.virtual_balance <> coalesce((select sum(t.amount) from ${balanceTransactions} t where t.user_id = u.id), 0)`),
    );
    expect(bad).toHaveLength(0);
    const counted = rowsOf<{ n: string | number }>(await db.execute(sql`select count(*) as n from ${balanceTransactions} where type = 'perp_open'`));
    expect(Number(counted[0]!.n)).toBeGreaterThan(10);
  });
});
