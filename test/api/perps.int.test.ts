import { and, asc, eq, gt, sql } from 'drizzle-orm';
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
import {
  balanceTransactions,
  notifications,
  organizations,
  perpFundingPayments,
  perpFundingRates,
  perpMarkets,
  perpPositions,
  users,
  type TUserRow,
} from '@/db/schema';
import { seedUser } from '@/test/factories';
import { seedWorld } from '@/lib/world/seed/world';
import { advanceTo, now, resetClock } from '@/lib/clock/clock';
import { readGameClock } from '@/lib/game/tick';
import { env, resetEnvCache } from '@/lib/env';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { dec } from '@/lib/money/decimal';
import {
  accruedFunding,
  annualizedFundingRate,
  effectiveLiquidationPrice,
  FUNDING_IMBALANCE_RATE,
  FUNDING_PERIOD_MS,
  fundingIndexStep,
  fundingPayment,
  fundingRate,
  isLiquidatable,
  MAINTENANCE_RATE,
  openInterestImbalance,
  quoteClose,
  quoteOpen,
} from '@/lib/perps/math';
import { liquidateTicker } from '@/lib/perps/service/liquidate';
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
    for (const k of ['change24h', 'changePercent24h', 'volume24h', 'fundingRate', 'fundingRateAnnualized', 'openInterest']) expect(typeof nexa[k]).toBe('number');
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
  /** A tick in the next game minute (a tick runs once per game minute). */
  const tickNextMinute = async () =>
    tick(new Date(Math.max(now().getTime(), (await readGameClock())?.lastTickAt.getTime() ?? 0) + 60_000).toISOString());

  beforeEach(() => {
    process.env.ALLOW_TEST_CLOCK = '1';
    resetEnvCache();
  });
  afterEach(() => {
    delete process.env.ALLOW_TEST_CLOCK;
    resetEnvCache();
    resetClock();
  });

  /** The ticker's funding rate rows from `after` on, oldest first. */
  const ratesOf = async (ticker: string, after: Date) =>
    (await getDb())
      .select()
      .from(perpFundingRates)
      .where(and(eq(perpFundingRates.ticker, ticker), gt(perpFundingRates.periodStart, after)))
      .orderBy(asc(perpFundingRates.periodStart));
  const positionRow = async (id: string) => {
    const [row] = await (await getDb()).select().from(perpPositions).where(eq(perpPositions.id, id));
    return row!;
  };
  /** What the funding statement reads of a ticker: mark, index and open interest at the mark per side (as the listing computes it). */
  const bookOf = async (ticker: string) => {
    const [b] = rowsOf<{ mark: string; index: string; long: string; short: string }>(
      await (await getDb()).execute(sql`
        select m.mark_price::text as mark, o.current_price::text as index,
          coalesce(trunc(sum(p.units) filter (where p.side = 'long') * m.mark_price, 8), 0)::text as long,
          coalesce(trunc(sum(p.units) filter (where p.side = 'short') * m.mark_price, 8), 0)::text as short
        from perp_markets m join organizations o on o.ticker = m.ticker
          left join perp_positions p on p.ticker = m.ticker and p.status = 'open'
        where m.ticker = ${ticker} group by m.mark_price, o.current_price`),
    );
    return { ...b!, rate: fundingRate({ markPrice: b!.mark, indexPrice: b!.index, openInterestLong: b!.long, openInterestShort: b!.short }) };
  };
  const myPosition = async (user: TUserRow, id: string) => {
    const res = await call(myPositionsRoute, '/api/markets/perps/positions', { token: await tokenFor(user), query: { status: 'open' } });
    return (res.body.positions as { id: string; collateral: number; fundingPaid: number; liquidationPrice: number }[]).find((p) => p.id === id)!;
  };

  it('moves each ticker\'s index once per whole period, touches no position, and the close pays the per-period sum', async () => {
    const db = await getDb();
    // Bring every ticker's funding up to date first, so only the new position's periods remain.
    await tickNextMinute();
    const long = await seedUser({ balance: '10000' });
    const short = await seedUser({ balance: '10000' });
    await setPrice('ORBT', 200);
    const l = (await open(long, { ticker: 'ORBT', side: 'long', size: 2000, leverage: 5 })).body.position;
    const s = (await open(short, { ticker: 'ORBT', side: 'short', size: 2000, leverage: 5 })).body.position;
    const m = await market('ORBT');
    const [org] = await db.select().from(organizations).where(eq(organizations.ticker, 'ORBT'));
    const book = await bookOf('ORBT');
    expect(book.index).toBe(org!.currentPrice);
    const rate = book.rate;
    const lRow = await positionRow(l.id);
    const sRow = await positionRow(s.id);
    expect(lRow.fundingIndexEntry).toBe(m.fundingIndex);
    // At the start of a game minute: game time runs on with the wall clock after the tick, and the
    // repeat below must fall in the same minute however slowly the checks between run (a later
    // second of the minute once let a loaded CI machine cross into the next one).
    const later = new Date(Math.ceil((now().getTime() + 24 * 3_600_000) / 60_000) * 60_000).toISOString();
    const first = await tick(later);
    expect(first.status).toBe(200);
    expect(first.body.funding.periods).toBeGreaterThanOrEqual(3);
    expect(first.body.funding.tickers).toBe(8 * first.body.funding.periods);
    // Three rate rows, each with the index it made; the market's index is the last.
    const rates = await ratesOf('ORBT', new Date(m.lastFundingAt));
    expect(rates).toHaveLength(3);
    let index = dec(m.fundingIndex);
    for (const r of rates) {
      expect(r.rate).toBe(rate.toFixed(18));
      index = index.plus(fundingIndexStep(m.markPrice, rate));
      expect(r.cumulativeIndex).toBe(index.toFixed(18));
    }
    expect((await market('ORBT')).fundingIndex).toBe(index.toFixed(18));
    // No position row changed: the accrual is read, not written.
    const lStored = await positionRow(l.id);
    expect(lStored).toMatchObject({ collateral: lRow.collateral, fundingPaid: '0.00000000', liquidationPrice: lRow.liquidationPrice, updatedAt: lRow.updatedAt });
    expect(await db.select().from(perpFundingPayments).where(eq(perpFundingPayments.positionId, l.id))).toHaveLength(0);
    // Readers add it: the accrual is the sum of the three per-period payments, to their truncation.
    const perLong = fundingPayment('long', lRow.units, m.markPrice, rate);
    const accrued = accruedFunding('long', lRow.units, index, lRow.fundingIndexEntry);
    expect(accrued.minus(perLong.times(3)).abs().lte('3e-8')).toBe(true);
    const shown = await myPosition(long, l.id);
    expect(shown.fundingPaid).toBe(accrued.toNumber());
    expect(shown.collateral).toBe(dec(lRow.margin).minus(accrued).toNumber());
    expect(shown.liquidationPrice).toBe(effectiveLiquidationPrice(lRow, index).toNumber());
    // Paying funding moves a long's liquidation price up toward the mark; receiving, down.
    expect(accrued.isZero()).toBe(false);
    expect(Math.sign(shown.liquidationPrice - Number(lRow.liquidationPrice))).toBe(accrued.isPositive() ? 1 : -1);
    const shortShown = await myPosition(short, s.id);
    expect(shortShown.fundingPaid).toBe(accruedFunding('short', sRow.units, index, sRow.fundingIndexEntry).toNumber());

    // The same time again is the same game minute: skipped, and no period is paid twice.
    const second = await tick(later);
    expect(second.body.skipped).toBe(true);
    expect(await ratesOf('ORBT', new Date(m.lastFundingAt))).toHaveLength(3);
    // Game time never moves backwards.
    await tick(new Date(Date.now()).toISOString());
    expect((await readGameClock())!.lastTickAt.getTime()).toBeGreaterThanOrEqual(new Date(later).getTime());

    // Closing settles the funding as a funding_paid row and reports it (the index has not moved since).
    expect((await market('ORBT')).fundingIndex).toBe(index.toFixed(18));
    const res = await close(long, l.id);
    expect(res.status).toBe(200);
    expect(res.body.fundingPaid).toBe(accrued.toNumber());
    const closed = await positionRow(l.id);
    expect(closed).toMatchObject({ fundingPaid: accrued.toFixed(8), collateral: dec(lRow.margin).minus(accrued).toFixed(8), fundingIndexEntry: index.toFixed(18) });
    const rows = await ledgerOf(long.id);
    const settlement = rows.find((r) => r.type === 'funding_paid');
    expect(settlement).toBeDefined();
    expect(dec(settlement!.amount).toFixed()).toBe(accrued.negated().toFixed());
    expect(dec(settlement!.amount).plus(perLong.times(3)).abs().lte('3e-8')).toBe(true);
    // Ledger chain: every row's balanceAfter = balanceBefore + amount, and the balance is the newest.
    for (const r of rows) expect(dec(r.balanceBefore).plus(r.amount).toFixed()).toBe(dec(r.balanceAfter).toFixed());
    expect((await balanceOf(long.id)).toFixed()).toBe(dec(res.body.newBalance).toFixed());
    // The short settles what its units accrued, the other way round from the long.
    const shortClose = await close(short, s.id);
    expect(shortClose.body.fundingPaid).toBe(accruedFunding('short', sRow.units, index, sRow.fundingIndexEntry).toNumber());
    expect(Math.sign(shortClose.body.fundingPaid)).toBe(-Math.sign(accrued.toNumber()));
  });

  it('a crowded long side pays the shorts at the funding time: the rate follows open interest, with the mark at the index', async () => {
    await tickNextMinute();
    const crowd = await seedUser({ balance: '60000' });
    const few = await seedUser({ balance: '10000' });
    const l = (await open(crowd, { ticker: 'VRSE', side: 'long', size: 100_000, leverage: 2 })).body.position;
    const s = (await open(few, { ticker: 'VRSE', side: 'short', size: 10_000, leverage: 2 })).body.position;
    // Arbitrage brings the mark back to the index: no premium, so only the crowding sets the rate.
    const [org] = await (await getDb()).select().from(organizations).where(eq(organizations.ticker, 'VRSE'));
    expect((await setPrice('VRSE', Number(org!.currentPrice))).status).toBe(200);
    const book = await bookOf('VRSE');
    expect(dec(book.mark).equals(book.index)).toBe(true);
    expect(dec(book.long).gt(dec(book.short).times(2))).toBe(true);
    // With a quiet premium the rate is the crowding part alone: 0.05% × (L − S)/(L + S), longs paying.
    const rate = book.rate;
    expect(rate.toFixed()).toBe(FUNDING_IMBALANCE_RATE.times(openInterestImbalance(book.long, book.short)).toDecimalPlaces(18, 1).toFixed());
    expect(rate.gt(0)).toBe(true);
    // The ticker shows that rate, and the same a year long.
    const listed = ((await call(listRoute, '/api/markets/perps')).body.tickers as { ticker: string; fundingRate: number; fundingRateAnnualized: number }[]).find(
      (t) => t.ticker === 'VRSE',
    )!;
    expect(listed.fundingRate).toBe(rate.toNumber());
    expect(listed.fundingRateAnnualized).toBe(annualizedFundingRate(rate).toNumber());

    const m = await market('VRSE');
    const lRow = await positionRow(l.id);
    const sRow = await positionRow(s.id);
    const res = await tick(new Date(new Date(m.lastFundingAt).getTime() + FUNDING_PERIOD_MS + 60_000).toISOString());
    expect(res.status).toBe(200);
    expect(res.body.funding.periods).toBeGreaterThanOrEqual(1);
    const rates = await ratesOf('VRSE', new Date(m.lastFundingAt));
    expect(rates.length).toBeGreaterThanOrEqual(1);
    let index = dec(m.fundingIndex);
    for (const r of rates) {
      expect(r.rate).toBe(rate.toFixed(18));
      index = index.plus(fundingIndexStep(book.mark, rate));
    }
    expect((await market('VRSE')).fundingIndex).toBe(index.toFixed(18));
    // The longs pay, the shorts receive; the long crowd pays more than the few shorts receive, the
    // difference (the net position's funding) going to the house, its counterparty.
    const longPaid = accruedFunding('long', lRow.units, index, lRow.fundingIndexEntry);
    const shortPaid = accruedFunding('short', sRow.units, index, sRow.fundingIndexEntry);
    expect(longPaid.gt(0)).toBe(true);
    expect(shortPaid.lt(0)).toBe(true);
    expect((await myPosition(crowd, l.id)).fundingPaid).toBe(longPaid.toNumber());
    expect((await myPosition(few, s.id)).fundingPaid).toBe(shortPaid.toNumber());
    const house = longPaid.plus(shortPaid);
    expect(house.minus(dec(lRow.units).minus(sRow.units).times(index.minus(m.fundingIndex))).abs().lte('2e-8')).toBe(true);
    expect(house.gt(0)).toBe(true);
    // Closing settles it through the ledger: the long is debited its funding, the short credited.
    const lc = await close(crowd, l.id);
    const sc = await close(few, s.id);
    expect([lc.status, sc.status]).toEqual([200, 200]);
    expect(lc.body.fundingPaid).toBe(longPaid.toNumber());
    expect(sc.body.fundingPaid).toBe(shortPaid.toNumber());
    const settlement = async (userId: string) => (await ledgerOf(userId)).find((r) => r.type === 'funding_paid')!;
    expect(dec((await settlement(crowd.id)).amount).toFixed()).toBe(longPaid.negated().toFixed());
    expect(dec((await settlement(few.id)).amount).toFixed()).toBe(shortPaid.negated().toFixed());
  });

  it('a position opened after a boundary whose funding has not run yet pays nothing for that period', async () => {
    await tickNextMinute();
    const m = await market('SOLR');
    const boundary = new Date(new Date(m.lastFundingAt).getTime() + FUNDING_PERIOD_MS);
    const before = await seedUser({ balance: '10000' });
    const after = await seedUser({ balance: '10000' });
    // Opened before the boundary, and (game time past it, no tick yet) after it.
    const early = (await open(before, { ticker: 'SOLR', side: 'long', size: 1000, leverage: 5 })).body.position;
    advanceTo(new Date(boundary.getTime() + 60_000));
    const late = (await open(after, { ticker: 'SOLR', side: 'long', size: 1000, leverage: 5 })).body.position;
    const index0 = (await market('SOLR')).fundingIndex;
    expect((await positionRow(late.id)).fundingIndexEntry).toBe(index0);
    // One tick pays the boundary and the next one.
    const res = await tick(new Date(boundary.getTime() + FUNDING_PERIOD_MS + 120_000).toISOString());
    expect(res.body.funding.periods).toBe(2);
    expect(res.body.funding.entriesMoved).toBeGreaterThanOrEqual(1);
    const [first, second] = await ratesOf('SOLR', new Date(m.lastFundingAt));
    expect(first!.periodStart.toISOString()).toBe(boundary.toISOString());
    // The early position entered at the index before both periods, the late one after the first.
    expect((await positionRow(early.id)).fundingIndexEntry).toBe(index0);
    const lateRow = await positionRow(late.id);
    expect(lateRow.fundingIndexEntry).toBe(first!.cumulativeIndex);
    const market1 = await market('SOLR');
    expect(market1.fundingIndex).toBe(second!.cumulativeIndex);
    const lateAccrued = accruedFunding('long', lateRow.units, second!.cumulativeIndex, first!.cumulativeIndex);
    expect((await myPosition(after, late.id)).fundingPaid).toBe(lateAccrued.toNumber());
    expect(lateAccrued.minus(fundingPayment('long', lateRow.units, second!.markPrice, second!.rate)).abs().lte('1e-8')).toBe(true);
    // Its close settles only the second period.
    const closed = await close(after, late.id);
    expect(closed.body.fundingPaid).toBe(lateAccrued.toNumber());
    await close(before, early.id);
  });

  it('liquidates on funding alone: the mark unchanged, the index moved past the position\'s collateral', async () => {
    const db = await getDb();
    const user = await seedUser({ balance: '10000' });
    const p = (await open(user, { ticker: 'KLDR', side: 'long', size: 1000, leverage: 50 })).body.position;
    const row = await positionRow(p.id);
    const m = await market('KLDR');
    const mark = dec(m.markPrice);
    // The index at which the effective liquidation price reaches the mark: shift(index) = mark − key.
    const key = dec(row.liquidationKey);
    const reach = mark.minus(key).times(dec(1).minus(MAINTENANCE_RATE)).toDecimalPlaces(18, 1);
    const short = reach.minus('0.000001');
    expect(isLiquidatable('long', mark, effectiveLiquidationPrice(row, short))).toBe(false);
    const enough = reach.plus('0.000001');
    expect(isLiquidatable('long', mark, effectiveLiquidationPrice(row, enough))).toBe(true);
    try {
      await db.update(perpMarkets).set({ fundingIndex: short.toFixed() }).where(eq(perpMarkets.ticker, 'KLDR'));
      expect((await liquidateTicker('KLDR')).map((x) => x.id)).not.toContain(p.id);
      expect((await positionRow(p.id)).status).toBe('open');
      await db.update(perpMarkets).set({ fundingIndex: enough.toFixed() }).where(eq(perpMarkets.ticker, 'KLDR'));
      expect((await liquidateTicker('KLDR')).map((x) => x.id)).toContain(p.id);
    } finally {
      await db.update(perpMarkets).set({ fundingIndex: m.fundingIndex }).where(eq(perpMarkets.ticker, 'KLDR'));
    }
    expect((await market('KLDR')).markPrice).toBe(m.markPrice);
    const accrued = accruedFunding('long', row.units, enough, row.fundingIndexEntry);
    const after = await positionRow(p.id);
    expect(after).toMatchObject({
      status: 'liquidated',
      exitPrice: m.markPrice,
      fundingPaid: accrued.toFixed(8),
      collateral: dec(row.collateral).minus(accrued).toFixed(8),
      netPnL: dec(row.margin).plus(row.openFee).negated().toFixed(8),
    });
    const notes = await db.select().from(notifications).where(and(eq(notifications.userId, user.id), eq(notifications.kind, 'liquidation')));
    expect(notes).toHaveLength(1);
    expect(notes[0]!.message).toMatch(/It had paid [\d,.]+ in funding\.$/);
  });

  it('records a price point per ticker and per active question on each tick', async () => {
    const res = await tickNextMinute();
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
