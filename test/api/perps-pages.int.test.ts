import { and, asc, eq, gte } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST as adminPriceRoute } from '@/app/api/admin/perps/[ticker]/price/route';
import { POST as tickRoute } from '@/app/api/cron/game-tick/route';
import { POST as closeRoute } from '@/app/api/markets/perps/[positionId]/close/route';
import { POST as openRoute } from '@/app/api/markets/perps/open/route';
import { GET as listRoute } from '@/app/api/markets/perps/route';
import { GET as candlesRoute } from '@/app/api/markets/perps/tickers/[ticker]/candles/route';
import { GET as tapeRoute } from '@/app/api/markets/perps/tickers/[ticker]/trades/route';
import { getDb } from '@/db/client';
import { perpMarkets, perpPositions, perpPricePoints, perpTrades, type TUserRow } from '@/db/schema';
import { resetClock, setFixedTime } from '@/lib/clock/clock';
import { env, resetEnvCache } from '@/lib/env';
import { dec, toNumber } from '@/lib/money/decimal';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { buildCandles, CANDLE_INTERVALS } from '@/lib/perps/candles';
import { seedWorld } from '@/lib/world/seed/world';
import { seedUser } from '@/test/factories';
import { call, tokenFor } from '@/test/http';

beforeAll(async () => {
  await seedWorld(await getDb());
});

beforeEach(() => {
  setLimiter(createMemoryLimiter());
});

afterEach(() => {
  resetClock();
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
const candles = (ticker: string, query: Record<string, string>) =>
  call(candlesRoute, `/api/markets/perps/tickers/${ticker}/candles`, { params: { ticker }, query });
const tape = async (ticker: string, query: Record<string, string> = {}, user?: TUserRow) =>
  call(tapeRoute, `/api/markets/perps/tickers/${ticker}/trades`, { params: { ticker }, query, ...(user ? { token: await tokenFor(user) } : {}) });
type TTicker = { ticker: string; markPrice: number; high24h: number; low24h: number; volume24h: number; openInterest: number; openInterestLong: number; openInterestShort: number };
const tickerOf = async (ticker: string): Promise<TTicker> => {
  const res = await call(listRoute, '/api/markets/perps');
  expect(res.status).toBe(200);
  return (res.body.tickers as TTicker[]).find((t) => t.ticker === ticker)!;
};

describe('GET /api/markets/perps/tickers/{ticker}/candles', () => {
  it('aggregates the price points exactly as the pure builder does, for every interval', async () => {
    const db = await getDb();
    const base = Date.UTC(2020, 0, 6, 9, 0, 0);
    // Points over two days with gaps, several at one instant (ordered by id there), out of insertion order.
    const offsets = [0, 1, 1, 1, 299_999, 300_000, 3_599_999, 3_600_000, 4 * 3_600_000 + 7, 26 * 3_600_000, 26 * 3_600_000, 47 * 3_600_000];
    const prices = ['50.5', '51', '49.25', '50', '52.125', '48', '50', '53.5', '47.75', '50.01', '50.02', '49.99'];
    await db.insert(perpPricePoints).values(
      offsets.map((o, i) => ({ id: `candle-pt-${String(11 - i).padStart(2, '0')}`, ticker: 'HELX', markPrice: prices[i]!, indexPrice: '54.75', source: 'admin' as const, createdAt: new Date(base + o) })),
    );
    const from = new Date(base + 120_000).toISOString();
    for (const interval of Object.keys(CANDLE_INTERVALS) as (keyof typeof CANDLE_INTERVALS)[]) {
      const ms = CANDLE_INTERVALS[interval];
      const res = await candles('helx', { interval, from });
      expect(res.status).toBe(200);
      const aligned = new Date(Math.floor((base + 120_000) / ms) * ms);
      expect(res.body.from).toBe(aligned.toISOString());
      const rows = await db
        .select()
        .from(perpPricePoints)
        .where(and(eq(perpPricePoints.ticker, 'HELX'), gte(perpPricePoints.createdAt, aligned)))
        .orderBy(asc(perpPricePoints.createdAt), asc(perpPricePoints.id));
      const expected = buildCandles(
        rows.map((r) => ({ at: r.createdAt.getTime(), price: toNumber(r.markPrice) })),
        ms,
      ).map((c) => ({ time: c.start / 1000, timestamp: new Date(c.start).toISOString(), open: c.open, high: c.high, low: c.low, close: c.close, count: c.count }));
      expect(res.body).toMatchObject({ ticker: 'HELX', interval, intervalSeconds: ms / 1000 });
      expect(res.body.candles).toEqual(expected);
    }
    // The 5-minute candle at 09:00 holds the three points at one instant, in id order: open 50.5, close 52.125.
    const fine = (await candles('HELX', { interval: '5m', from: new Date(base).toISOString() })).body.candles;
    expect(fine[0]).toMatchObject({ time: base / 1000, open: 50.5, high: 52.125, low: 49.25, close: 52.125, count: 5 });
    expect(fine[1]).toMatchObject({ time: (base + 300_000) / 1000, open: 48, close: 48, count: 1 });
    expect(fine[2]).toMatchObject({ time: (base + 3_300_000) / 1000, open: 50, close: 50, count: 1 });
  });

  it('ends at the live mark over a range, and refuses bad input with 4xx', async () => {
    await setPrice('SOLR', 33.3);
    const res = await candles('SOLR', { interval: '1h', range: '24h' });
    expect(res.status).toBe(200);
    expect(res.body.candles.length).toBeGreaterThan(0);
    expect(res.body.candles.at(-1).close).toBe(33.3);
    expect(res.body.markPrice).toBe(33.3);
    expect((await candles('NOPE', {})).status).toBe(404);
    expect((await candles('SOLR', { interval: '2m' })).status).toBe(400);
    expect((await candles('SOLR', { from: 'yesterday' })).status).toBe(400);
    expect((await candles('SOLR', { range: 'forever' })).status).toBe(400);
  });
});

describe('GET /api/markets/perps/tickers/{ticker}/trades', () => {
  it('lists the newest trades first, marks the caller own, names nobody', async () => {
    const user = await seedUser({ balance: '10000' });
    const opened = await open(user, { ticker: 'MNTL', side: 'short', size: 300, leverage: 3 });
    expect(opened.status).toBe(200);
    const closed = await close(user, opened.body.position.id);
    expect(closed.status).toBe(200);

    const mine = await tape('mntl', { limit: '2' }, user);
    expect(mine.status).toBe(200);
    expect(mine.body.ticker).toBe('MNTL');
    expect(mine.body.trades).toHaveLength(2);
    const [last, first] = mine.body.trades;
    expect(last).toMatchObject({ side: 'short', action: 'close', price: closed.body.exitPrice, isMine: true });
    const [closeRow] = await (await getDb()).select().from(perpTrades).where(eq(perpTrades.id, last.id));
    expect(closeRow!.action).toBe('close');
    expect(last.size).toBe(toNumber(closeRow!.size));
    expect(last.size).toBeCloseTo(300, 0);
    expect(first).toMatchObject({ side: 'short', action: 'open', size: 300, price: opened.body.position.entryPrice, isMine: true });
    expect(Object.keys(last)).not.toContain('userId');

    const anonymous = await tape('MNTL');
    expect(anonymous.body.trades[0]).toMatchObject({ id: last.id, isMine: false });
    expect((await tape('NOPE')).status).toBe(404);
    expect((await tape('MNTL', { limit: '0' })).status).toBe(400);
    expect((await tape('MNTL', { limit: 'ten' })).status).toBe(400);
  });
});

describe('open interest, 24 h volume and the 24 h range', () => {
  it('open interest is the notional of open positions at the mark, long and short', async () => {
    const db = await getDb();
    const a = await seedUser({ balance: '10000' });
    const b = await seedUser({ balance: '10000' });
    expect((await open(a, { ticker: 'VRSE', side: 'long', size: 1000, leverage: 5 })).status).toBe(200);
    expect((await open(b, { ticker: 'VRSE', side: 'short', size: 400, leverage: 2 })).status).toBe(200);
    const t = await tickerOf('VRSE');
    const rows = await db.select().from(perpPositions).where(and(eq(perpPositions.ticker, 'VRSE'), eq(perpPositions.status, 'open')));
    const [m] = await db.select().from(perpMarkets).where(eq(perpMarkets.ticker, 'VRSE'));
    const notional = (side: 'long' | 'short') =>
      rows
        .filter((r) => r.side === side)
        .reduce((s, r) => s.plus(r.units), dec(0))
        .times(m!.markPrice)
        .toDecimalPlaces(8, 1)
        .toNumber();
    expect(notional('long')).toBeGreaterThan(0);
    expect(notional('short')).toBeGreaterThan(0);
    expect(t.openInterestLong).toBe(notional('long'));
    expect(t.openInterestShort).toBe(notional('short'));
    expect(t.openInterest).toBeCloseTo(t.openInterestLong + t.openInterestShort, 8);
    // Marked to market: a higher mark is more open interest.
    await setPrice('VRSE', toNumber(m!.markPrice) * 1.1);
    expect((await tickerOf('VRSE')).openInterestLong).toBeGreaterThan(t.openInterestLong);
  });

  it('24 h volume counts opens, closes and liquidations at their notional', async () => {
    const user = await seedUser({ balance: '10000' });
    const before = (await tickerOf('KLDR')).volume24h;
    const safe = await open(user, { ticker: 'KLDR', side: 'long', size: 500, leverage: 2 });
    const risky = await open(user, { ticker: 'KLDR', side: 'long', size: 1000, leverage: 50 });
    expect(risky.status).toBe(200);
    const closed = await close(user, safe.body.position.id);
    expect(closed.status).toBe(200);
    const liqPrice = risky.body.position.liquidationPrice * 0.99;
    const moved = await setPrice('KLDR', liqPrice);
    expect(moved.body.liquidatedPositionIds).toContain(risky.body.position.id);
    const after = (await tickerOf('KLDR')).volume24h;
    const rows = await (await getDb()).select().from(perpTrades).where(eq(perpTrades.userId, user.id));
    expect(rows.map((r) => r.action).sort()).toEqual(['close', 'liquidation', 'open', 'open']);
    // A close stores its own notional (units × exit), and so does a liquidation (units × the mark it happened at).
    const closeNotional = toNumber(rows.find((r) => r.action === 'close')!.size);
    const liq = rows.find((r) => r.action === 'liquidation')!;
    const liqNotional = dec(risky.body.position.units).times(liq.price).toNumber();
    expect(toNumber(liq.size)).toBeCloseTo(liqNotional, 6);
    expect(toNumber(liq.price)).toBeCloseTo(liqPrice, 6);
    expect(after - before).toBeCloseTo(500 + 1000 + closeNotional + liqNotional, 4);
  });

  it('the 24 h high and low bracket the live mark after a price move and a tick, and with no points in the window', async () => {
    const tick = (now?: string) => call(tickRoute, '/api/cron/game-tick', { method: 'POST', token: env().cronSecret, body: now ? { now } : {} });
    process.env.ALLOW_TEST_CLOCK = '1';
    resetEnvCache();
    try {
      const start = (await tickerOf('NEXA')).markPrice;
      for (const factor of [0.5, 3, 1.2]) {
        expect((await setPrice('NEXA', start * factor)).status).toBe(200);
        expect((await tick()).status).toBe(200);
        const t = await tickerOf('NEXA');
        expect(t.high24h).toBeGreaterThanOrEqual(t.markPrice);
        expect(t.low24h).toBeLessThanOrEqual(t.markPrice);
      }
      const t = await tickerOf('NEXA');
      expect(t.high24h).toBeGreaterThanOrEqual(start * 3);
      expect(t.low24h).toBeLessThanOrEqual(start * 0.5);
    } finally {
      delete process.env.ALLOW_TEST_CLOCK;
      resetEnvCache();
    }
    // Three days on, no point is in the window: the range is the mark itself.
    setFixedTime(new Date(Date.now() + 3 * 86_400_000));
    const quiet = await tickerOf('NEXA');
    expect(quiet.high24h).toBe(quiet.markPrice);
    expect(quiet.low24h).toBe(quiet.markPrice);
    expect(quiet.volume24h).toBe(0);
  });
});
