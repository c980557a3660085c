/**
 * A question's 24 h volume is read from market_volume_hours (migration 0031: each market's traded
 * amount per UTC hour, kept by a trigger on trades) plus the trades of the window's first hour
 * (lib/markets/sql.ts volume24hSql). Here it is held against the plain sum of the trades in the
 * window, in the list (prepared and filtered), the question's page and the top markets, at
 * moments on, just after and just before hour boundaries, with trades on both sides of each; the
 * hour rows are held against the trades grouped by hour; and the tick's pruning drops only hours
 * no window can reach.
 */
import { sql } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDb, rowsOf } from '@/db/client';
import type { TUserRow } from '@/db/schema';
import { callerOfUser } from '@/lib/auth/caller';
import { resetClock, setFixedTime } from '@/lib/clock/clock';
import { buyShares } from '@/lib/markets/service/buy-shares';
import { createMarket } from '@/lib/markets/service/create-market';
import { getPrediction, listPredictions } from '@/lib/markets/service/read-markets';
import { sellShares } from '@/lib/markets/service/sell-shares';
import { pruneVolumeHours, VOLUME_HOURS_KEEP_MS } from '@/lib/markets/volume';
import { createMemoryLimiter, setLimiter } from '@/lib/operations/rate-limit';
import { seedWorld } from '@/lib/world/seed/world';
import { seedUser } from '@/test/factories';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

beforeAll(async () => {
  await seedWorld(await getDb());
});
beforeEach(() => setLimiter(createMemoryLimiter()));
afterEach(() => resetClock());

/** The plain reading: every trade of the market after `since`. */
const summed = async (marketId: string, since: Date) => {
  const [r] = rowsOf<{ v: string }>(
    await (await getDb()).execute(
      sql`select coalesce(sum(amount), 0)::text as v from trades where market_id = ${marketId} and created_at > ${since.toISOString()}::timestamptz`,
    ),
  );
  return Number(r!.v);
};

describe('the 24 h volume from hourly rows', () => {
  let trader: TUserRow;
  // A fixed day, far from the real clock, so no other test's trades share its hours.
  const day0 = new Date(Date.UTC(2031, 2, 10, 0, 0, 0));

  beforeAll(async () => {
    trader = await seedUser({ balance: '100000' });
  });

  it("equals the sum of the window's trades on, after and before hour boundaries", async () => {
    setFixedTime(day0);
    const m = await createMarket({ caller: null, text: 'Volume hours: does the window add up?', resolutionDate: new Date(day0.getTime() + 30 * DAY), liquidity: 1000 });
    const other = await createMarket({ caller: null, text: 'Volume hours: a second market in the same hours?', resolutionDate: new Date(day0.getTime() + 30 * DAY), liquidity: 1000 });
    // Trades over two days: on an hour, a second after it, a second before the next, mid-hour.
    const offsets = [0, SECOND, HOUR - SECOND, 30 * MINUTE, 5 * HOUR, 5 * HOUR + 17 * MINUTE, 23 * HOUR + 59 * MINUTE, DAY, DAY + SECOND, DAY + 2 * HOUR, DAY + 2 * HOUR + 1];
    for (const [i, off] of offsets.entries()) {
      setFixedTime(new Date(day0.getTime() + HOUR + off));
      await buyShares({ caller: callerOfUser(trader), marketId: m.id, outcome: i % 2 ? 'NO' : 'YES', amount: String(3 + i) });
      if (i % 3 === 0) await buyShares({ caller: callerOfUser(trader), marketId: other.id, outcome: 'YES', amount: '2.5' });
      if (i === 6) await sellShares({ caller: callerOfUser(trader), marketId: m.id, outcome: 'YES', shares: '1' });
    }
    // Readers at moments around the trades: exactly 24 h after one (the window excludes it), a
    // second either side, on hour boundaries and between them.
    const readers = [DAY + HOUR, DAY + HOUR + SECOND, DAY + HOUR - SECOND, DAY + 2 * HOUR, DAY + 1.5 * HOUR, DAY + 6 * HOUR + 17 * MINUTE, 2 * DAY + HOUR, 2 * DAY + 3 * HOUR, 2 * DAY + HOUR + 30 * MINUTE];
    let nonZero = 0;
    for (const r of readers) {
      const at = new Date(day0.getTime() + HOUR + r);
      setFixedTime(at);
      const since = new Date(at.getTime() - DAY);
      for (const market of [m, other]) {
        const expected = await summed(market.id, since);
        if (expected > 0) nonZero++;
        const label = `${market.text} at ${at.toISOString()}`;
        expect((await getPrediction(market.id)).market.volume24h, label).toBe(expected);
        for (const form of [{ status: 'active' as const }, { status: 'active' as const, q: 'volume hours' }]) {
          const listed = (await listPredictions({ ...form, page: 1, limit: 100 })).questions.find((q) => q.id === market.id);
          expect(listed?.volume24h, `${label} ${JSON.stringify(form)}`).toBe(expected);
        }
      }
    }
    // The windows did catch trades (the comparison is not between zeros).
    expect(nonZero).toBeGreaterThan(10);
  });

  it('keeps one row per market and UTC hour with the sum of its trades', async () => {
    const db = await getDb();
    const mismatched = rowsOf<{ market_id: string }>(
      await db.execute(sql`
        with byHour as (
          select market_id, date_trunc('hour', created_at, 'UTC') as hour, sum(amount) as amount from trades group by 1, 2
        )
        select coalesce(b.market_id, h.market_id) as market_id from byHour b
        full join market_volume_hours h on h.market_id = b.market_id and h.hour = b.hour
        where b.amount is distinct from h.amount`),
    );
    expect(mismatched).toEqual([]);
    const [n] = rowsOf<{ n: string }>(await db.execute(sql`select count(*) as n from market_volume_hours`));
    expect(Number(n!.n)).toBeGreaterThanOrEqual(8);
  });

  it('prunes hours two days old, measured from the earlier of game time and the wall clock', async () => {
    const db = await getDb();
    const hours = async () =>
      rowsOf<{ hour: string }>(await db.execute(sql`select hour::text from market_volume_hours where hour >= ${day0.toISOString()}::timestamptz order by hour`)).length;
    const before = await hours();
    expect(before).toBeGreaterThan(5);
    // A tick whose game time is day0 + 3 days: the wall clock (years before day0) is the earlier,
    // so the test's hours, which that game time alone would drop, stay; a window in them adds up.
    await pruneVolumeHours(new Date(day0.getTime() + 3 * DAY));
    expect(await hours()).toBe(before);
    const at = new Date(day0.getTime() + DAY + 3 * HOUR);
    setFixedTime(at);
    const [m] = (await listPredictions({ status: 'active', q: 'does the window add up', page: 1, limit: 5 })).questions;
    expect(m!.volume24h).toBe(await summed(m!.id, new Date(at.getTime() - DAY)));
    // Rows older than the keep window before min(at, now) go: an hour row stamped long ago.
    await db.execute(sql`insert into market_volume_hours (market_id, hour, amount)
      values (${m!.id}, ${new Date(Date.now() - VOLUME_HOURS_KEEP_MS - 2 * HOUR).toISOString()}::timestamptz, 1)`);
    expect(await pruneVolumeHours(new Date())).toBeGreaterThanOrEqual(1);
    const [left] = rowsOf<{ n: string }>(
      await db.execute(sql`select count(*) as n from market_volume_hours where hour < ${new Date(Date.now() - VOLUME_HOURS_KEEP_MS).toISOString()}::timestamptz`),
    );
    expect(Number(left!.n)).toBe(0);
    expect(await hours()).toBe(before);
  });
});
