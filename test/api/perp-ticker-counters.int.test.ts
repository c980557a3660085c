/**
 * A perps ticker's open interest and 24 h volume come from what migration 0032's triggers keep: the
 * open units per side on the ticker's row and the traded notional per UTC hour. Here both are held
 * to the plain readings (Σ units of open positions × mark; Σ size of the window's trades) through
 * the API: after opens, closes, a liquidation and concurrent trading from many players, and at
 * moments on, just after and just before hour boundaries. The pruning drops only hours no window
 * reaches. Other suites (perp orders, the pools' day, the world, the backfill, the perps history)
 * check the same invariant after their own writers (test/invariants.ts expectPerpTickerCounters).
 */
import { sql } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST as adminPriceRoute } from '@/app/api/admin/perps/[ticker]/price/route';
import { POST as closeRoute } from '@/app/api/markets/perps/[positionId]/close/route';
import { POST as openRoute } from '@/app/api/markets/perps/open/route';
import { GET as listRoute } from '@/app/api/markets/perps/route';
import { getDb, rowsOf } from '@/db/client';
import type { TUserRow } from '@/db/schema';
import { resetClock, setFixedTime } from '@/lib/clock/clock';
import { dec } from '@/lib/money/decimal';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { PERP_VOLUME_HOURS_KEEP_MS, prunePerpVolumeHours } from '@/lib/perps/volume';
import { seedWorld } from '@/lib/world/seed/world';
import { seedUser } from '@/test/factories';
import { call, tokenFor } from '@/test/http';
import { expectPerpTickerCounters } from '@/test/invariants';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

beforeAll(async () => {
  await seedWorld(await getDb());
});
beforeEach(() => setLimiter(createMemoryLimiter()));
afterEach(() => resetClock());

const q = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await (await getDb()).execute(query));

let admin: TUserRow;
const open = async (user: TUserRow, body: Record<string, unknown>) =>
  call(openRoute, '/api/markets/perps/open', { method: 'POST', token: await tokenFor(user), body });
const close = async (user: TUserRow, positionId: string) =>
  call(closeRoute, `/api/markets/perps/${positionId}/close`, { method: 'POST', token: await tokenFor(user), params: { positionId } });
const setPrice = async (ticker: string, price: number) => {
  admin ??= await seedUser({ isAdmin: true, balance: '0' });
  return call(adminPriceRoute, `/api/admin/perps/${ticker}/price`, { method: 'POST', token: await tokenFor(admin), params: { ticker }, body: { price } });
};

type TTicker = { ticker: string; openInterest: number; openInterestLong: number; openInterestShort: number; volume24h: number };
const tickers = async () => {
  const res = await call(listRoute, '/api/markets/perps');
  expect(res.status).toBe(200);
  return new Map((res.body.tickers as TTicker[]).map((t) => [t.ticker, t]));
};

/** The plain readings: Σ units of open positions × mark per side, and Σ size of trades after `since`. */
const plain = async (ticker: string, since: Date) => {
  const [r] = await q<{ long: string; short: string; volume: string }>(sql`
    select
      trunc(coalesce((select sum(units) from perp_positions where ticker = m.ticker and status = 'open' and side = 'long'), 0) * m.mark_price, 8)::text as long,
      trunc(coalesce((select sum(units) from perp_positions where ticker = m.ticker and status = 'open' and side = 'short'), 0) * m.mark_price, 8)::text as short,
      coalesce((select sum(size) from perp_trades where ticker = m.ticker and created_at > ${since.toISOString()}::timestamptz), 0)::text as volume
    from perp_markets m where m.ticker = ${ticker}`);
  return { long: Number(r!.long), short: Number(r!.short), volume: Number(r!.volume) };
};

const expectPlain = async (ticker: string, at: Date, label: string) => {
  const t = (await tickers()).get(ticker)!;
  const p = await plain(ticker, new Date(at.getTime() - DAY));
  expect({ long: t.openInterestLong, short: t.openInterestShort, volume: t.volume24h }, label).toEqual(p);
  expect(t.openInterest, label).toBeCloseTo(p.long + p.short, 6);
  return p;
};

describe("a ticker's kept open interest and volume", () => {
  // A fixed day, far from the real clock, so no other test's trades share its hours.
  const day0 = new Date(Date.UTC(2031, 4, 10, 0, 0, 0));

  it('follows opens, closes and a liquidation, each side apart', async () => {
    setFixedTime(day0);
    const users = await Promise.all([0, 1, 2].map(() => seedUser({ balance: '100000' })));
    await setPrice('VRSE', 100);
    const a = (await open(users[0]!, { ticker: 'VRSE', side: 'long', size: 1000, leverage: 5 })).body.position;
    const b = (await open(users[1]!, { ticker: 'VRSE', side: 'short', size: 600, leverage: 2 })).body.position;
    const risky = (await open(users[2]!, { ticker: 'VRSE', side: 'long', size: 2000, leverage: 20 })).body.position;
    let p = await expectPlain('VRSE', day0, 'after three opens');
    expect(p.long).toBeGreaterThan(0);
    expect(p.short).toBeGreaterThan(0);

    setFixedTime(new Date(day0.getTime() + 10 * MINUTE));
    expect((await close(users[1]!, b.id)).status).toBe(200);
    p = await expectPlain('VRSE', new Date(day0.getTime() + 10 * MINUTE), 'after the short closed');
    expect(p.short).toBe(0);

    // The mark reaches the risky long's liquidation price: the sweep's update counts it out.
    const res = await setPrice('VRSE', risky.liquidationPrice);
    expect(res.body.liquidatedPositionIds).toEqual([risky.id]);
    p = await expectPlain('VRSE', new Date(day0.getTime() + 10 * MINUTE), 'after the liquidation');
    const [units] = await q<{ kept: string; own: string }>(sql`
      select m.open_units_long::text as kept, pp.units::text as own from perp_markets m join perp_positions pp on pp.id = ${a.id} where m.ticker = 'VRSE'`);
    // Only the first long is left open on VRSE (the world seeds no positions of its own).
    expect(dec(units!.kept).eq(dec(units!.own))).toBe(true);

    expect((await close(users[0]!, a.id)).status).toBe(200);
    p = await expectPlain('VRSE', new Date(day0.getTime() + 10 * MINUTE), 'after every position closed');
    expect(p.long).toBe(0);
    expect(p.volume).toBeGreaterThan(0);
    await expectPerpTickerCounters();
  });

  it('keeps the sums under concurrent opens and closes from many players', async () => {
    setFixedTime(new Date(day0.getTime() + 2 * HOUR));
    const players = await Promise.all(Array.from({ length: 12 }, () => seedUser({ balance: '100000' })));
    const tickersUsed = ['NEXA', 'QBIT', 'HELX'];
    const opened = await Promise.all(
      players.map((u, i) => open(u, { ticker: tickersUsed[i % 3], side: i % 2 ? 'short' : 'long', size: 100 + i * 10, leverage: 1 + (i % 4) })),
    );
    expect(opened.every((r) => r.status === 200)).toBe(true);
    // Half of them close at once while the other half open again.
    const again = await Promise.all(
      players.map((u, i) =>
        i % 2
          ? close(u, opened[i]!.body.position.id)
          : open(u, { ticker: tickersUsed[(i + 1) % 3], side: 'short', size: 50 + i, leverage: 2 }),
      ),
    );
    expect(again.every((r) => r.status === 200)).toBe(true);
    for (const t of tickersUsed) await expectPlain(t, new Date(day0.getTime() + 2 * HOUR), `${t} after concurrent trading`);
    expect((await expectPerpTickerCounters()).openPositions).toBeGreaterThanOrEqual(12);
  });

  it("equals the window's trades on, after and before hour boundaries, and pruning keeps what a window reaches", async () => {
    const user = await seedUser({ balance: '1000000' });
    const base = new Date(day0.getTime() + 3 * DAY);
    // Trades over two days: on an hour, a second after it, a second before the next, mid-hour.
    const offsets = [0, SECOND, HOUR - SECOND, 30 * MINUTE, 5 * HOUR, 23 * HOUR + 59 * MINUTE, DAY, DAY + SECOND, DAY + 2 * HOUR];
    for (const [i, off] of offsets.entries()) {
      setFixedTime(new Date(base.getTime() + off));
      const pos = (await open(user, { ticker: 'ORBT', side: i % 2 ? 'short' : 'long', size: 40 + i, leverage: 2 })).body.position;
      if (i % 3 === 0) expect((await close(user, pos.id)).status).toBe(200);
    }
    const readers = [DAY, DAY + SECOND, DAY - SECOND, DAY + HOUR, DAY + 30 * MINUTE, 2 * DAY + 2 * HOUR, 2 * DAY + HOUR - SECOND];
    let nonZero = 0;
    for (const r of readers) {
      const at = new Date(base.getTime() + r);
      setFixedTime(at);
      if ((await expectPlain('ORBT', at, `ORBT at ${at.toISOString()}`)).volume > 0) nonZero++;
    }
    expect(nonZero).toBeGreaterThan(4);

    const hours = async () =>
      (await q<{ n: number }>(sql`select count(*)::int as n from perp_volume_hours where ticker = 'ORBT' and hour >= ${base.toISOString()}::timestamptz`))[0]!.n;
    const before = await hours();
    expect(before).toBe(5);
    // A game time days ahead: the wall clock (years before) is the earlier, so the hours stay.
    await prunePerpVolumeHours(new Date(base.getTime() + 5 * DAY));
    expect(await hours()).toBe(before);
    // An hour row stamped long before the wall clock's keep window goes; a recent one stays.
    const old = new Date(Date.now() - PERP_VOLUME_HOURS_KEEP_MS - 2 * HOUR);
    const recent = new Date(Date.now() - HOUR);
    for (const at of [old, recent]) {
      await q(sql`insert into perp_volume_hours (ticker, hour, amount) values ('ORBT', date_trunc('hour', ${at.toISOString()}::timestamptz, 'UTC'), 1)`);
    }
    expect(await prunePerpVolumeHours(new Date())).toBeGreaterThanOrEqual(1);
    const left = await q<{ hour: string }>(sql`select hour::text from perp_volume_hours where ticker = 'ORBT' and amount = 1`);
    expect(left).toHaveLength(1);
    await q(sql`delete from perp_volume_hours where ticker = 'ORBT' and amount = 1`);
  });
});
