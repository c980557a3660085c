/**
 * The per-minute game tick. So far: game time (CONTRACT.md "Game time": under ALLOW_TEST_CLOCK=1
 * a tick may run as of a later time; game time never moves backwards, also across restarts),
 * perpetual funding for every period now due, the liquidation sweep, and a price point per
 * ticker and per active question. The living-world issue adds NPC posts, news and price moves.
 */
import { eq, sql } from 'drizzle-orm';
import { getDb, rowsOf } from '@/db/client';
import { gameClock, marketPricePoints, markets, organizations, perpMarkets, perpPricePoints } from '@/db/schema';
import { advanceTo, now } from '@/lib/clock/clock';
import { env } from '@/lib/env';
import { payDueFunding } from '@/lib/perps/service/funding';
import { liquidateTicker } from '@/lib/perps/service/liquidate';

const CLOCK_ID = 'main';

/** Restores game time persisted by earlier ticks, then moves it to `requested` when allowed. */
const advanceGameTime = async (requested?: string) => {
  const db = await getDb();
  const [saved] = await db.select().from(gameClock).where(eq(gameClock.id, CLOCK_ID));
  if (saved) advanceTo(saved.lastTickAt);
  if (requested && env().allowTestClock) advanceTo(new Date(requested));
  const at = now();
  await db
    .insert(gameClock)
    .values({ id: CLOCK_ID, lastTickAt: at })
    .onConflictDoUpdate({ target: gameClock.id, set: { lastTickAt: sql`greatest(${gameClock.lastTickAt}, excluded.last_tick_at)` } });
  return at;
};

/** One price point per ticker and per active question, as of `at` (charts move even without trades). */
const recordTickPricePoints = async (at: Date) => {
  const db = await getDb();
  const ts = sql`${at.toISOString()}::timestamptz`;
  const perps = rowsOf(
    await db.execute(sql`
      insert into ${perpPricePoints} (id, ticker, mark_price, index_price, source, created_at)
      select gen_random_uuid()::text, m.ticker, m.mark_price, o.current_price, 'tick', ${ts}
      from ${perpMarkets} m join ${organizations} o on o.ticker = m.ticker
      returning id`),
  ).length;
  const questions = rowsOf(
    await db.execute(sql`
      insert into ${marketPricePoints} (id, market_id, yes_price, yes_shares, no_shares, source, created_at)
      select gen_random_uuid()::text, m.id, trunc(m.yes_shares / (m.yes_shares + m.no_shares), 18), m.yes_shares, m.no_shares, 'tick', ${ts}
      from ${markets} m where m.status = 'active'
      returning id`),
  ).length;
  return { perps, questions };
};

export const runGameTick = async (opts: { now?: string }) => {
  const at = await advanceGameTime(opts.now);
  const funding = await payDueFunding(at);
  const liquidated = await liquidateTicker();
  const pricePoints = await recordTickPricePoints(at);
  return {
    skipped: false,
    gameTime: at.toISOString(),
    funding: { periods: funding.periods, payments: funding.payments },
    liquidations: liquidated.length,
    pricePoints,
  };
};
