/**
 * Figures "orders" (BENCH_ONLY=orders, issue 32): the matching engine and the perp triggers, called
 * as the routes call them (the services, no HTTP), on a throwaway database of their own.
 *
 * 1. "buy crossing 50 orders": a market buy that fills 50 resting limit orders on its way (then
 *    the maker), against the same buy on an identical question whose book holds no order it can
 *    reach: the cost of 50 fills. Both questions also hold 10,000 resting orders far from the price.
 * 2. "buy beside 10,000 orders": the buy that crosses none, beside 10,000 resting orders, against the
 *    same beside 100: the cost must not grow with the book (ratio about 1).
 * 3. "order placement": limit orders placed per second (resting, reserved through the ledger), from
 *    BENCH_ORDER_CONNECTIONS loops, against plain market buys on a question with no book, same run.
 * 4. "mark move, 100 of 100,000 stops fire": the admin price route's mark move on a ticker with
 *    100,000 resting stop-losses of which 100 are crossed, against the same move with 100 resting
 *    (all crossed): what a mark move costs is what it triggers, not what rests.
 *
 * The far orders and the resting stops are seeded in SQL (setup, untimed); everything timed goes
 * through the services. Environment: BENCH_ORDER_ROUNDS (default 15), BENCH_ORDER_SECONDS (5),
 * BENCH_ORDER_CONNECTIONS (8).
 */
import postgres from 'postgres';
import { callerOfUser } from '@/lib/auth/caller';
import { driveLoops, type TFigure } from './figures';
import { closeLibDb, openLibDb } from './pools';

const ROUNDS = Number(process.env.BENCH_ORDER_ROUNDS ?? 15);
const SECONDS = Number(process.env.BENCH_ORDER_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_ORDER_CONNECTIONS ?? 8);

export const benchOrders = async (ctx: { baseUrl: string; figures: TFigure[]; poolMax: number }) => {
  const dbName = `pm_orders_${Date.now()}`;
  const admin = postgres(ctx.baseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${dbName}`);
  const url = new URL(ctx.baseUrl);
  url.pathname = `/${dbName}`;
  await closeLibDb();
  const saved = process.env.STARTING_BALANCE;
  const direct = postgres(url.toString(), { max: 2, onnotice: () => {} });
  try {
    console.log(`\nOrders: the matching engine and perp triggers, database ${dbName}…`);
    process.env.STARTING_BALANCE = '100000000';
    const db = await openLibDb(url.toString(), ctx.poolMax);
    const { seedWorld } = await import('@/lib/world/seed/world');
    const { provisionUser } = await import('@/lib/users/service/provision-user');
    const { createMarket } = await import('@/lib/markets/service/create-market');
    const { buyShares } = await import('@/lib/markets/service/buy-shares');
    const { placePredictionOrder } = await import('@/lib/markets/orders/place-order');
    await seedWorld(db);
    const users = await Promise.all(Array.from({ length: CONNECTIONS + 2 }, (_, i) => provisionUser({ subject: `orders|${i}` })));
    const callers = users.map((u) => callerOfUser(u));
    const [taker, maker] = [callers[0]!, callers[1]!];
    const resolutionDate = new Date(Date.now() + 30 * 86_400_000);

    /** A question at 0.5 with `far` resting NO orders at 0.05 (YES offered at 0.95: out of reach), seeded in SQL. */
    const question = async (far: number) => {
      const m = await createMarket({ caller: null, text: `Orders benchmark question ${Math.random()}?`, resolutionDate, liquidity: 1000 });
      if (far > 0) {
        await direct.unsafe(
          `insert into prediction_orders (id, user_id, market_id, outcome, limit_price, amount, status, time_in_force, created_at, updated_at)
           select gen_random_uuid()::text, $1, $2, 'NO', 0.05, 10, 'open', 'GTC', now(), now() from generate_series(1, $3)`,
          [users[1]!.id, m.id, far],
        );
        await direct.unsafe(`update markets set open_no_orders = open_no_orders + $2 where id = $1`, [m.id, far]);
      }
      return m.id;
    };

    // 1 and 2: a buy of 100 YES on a 1,000 pool moves the maker from 0.5 past 0.51; 50 NO orders at
    // 0.49 (YES at 0.51, 1 each) are crossed on the way.
    const timeBuy = async (marketId: string) => {
      const t0 = performance.now();
      const r = await buyShares({ caller: taker, marketId, outcome: 'YES', amount: '100' });
      return { ms: performance.now() - t0, shares: r.shares };
    };
    const crossing: number[] = [];
    const none: number[] = [];
    const smallBook: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const a = await question(10_000);
      for (let i = 0; i < 50; i++) await placePredictionOrder({ caller: maker, marketId: a, outcome: 'NO', amount: '1', limitPrice: '0.49' });
      const b = await question(10_000);
      const c = await question(100);
      crossing.push((await timeBuy(a)).ms);
      none.push((await timeBuy(b)).ms);
      smallBook.push((await timeBuy(c)).ms);
      if (round === 0) {
        const [row] = await direct.unsafe(`select count(*)::int as n from prediction_orders where market_id = $1 and status = 'filled' and limit_price = 0.49`, [a]);
        const n = Number(row?.n);
        if (n !== 50) throw new Error(`orders bench: the crossing buy filled ${n} of 50 orders`);
      }
    }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    console.log(`  buy crossing 50: ${median(crossing).toFixed(1)} ms; crossing none beside 10,000: ${median(none).toFixed(1)} ms; beside 100: ${median(smallBook).toFixed(1)} ms (medians of ${ROUNDS})`);
    ctx.figures.push({
      name: 'buy crossing 50 orders',
      project: median(crossing),
      reference: median(none),
      unit: 'ms/buy',
      higherIsBetter: false,
      referenceIs: 'the same buy crossing no order (10,000 resting out of reach)',
    });
    ctx.figures.push({
      name: 'buy beside 10,000 orders',
      project: median(none),
      reference: median(smallBook),
      unit: 'ms/buy',
      higherIsBetter: false,
      referenceIs: 'the same buy beside 100 resting orders',
    });

    // 3: placement throughput against the plain buy, same loops, same run.
    const placeOn = await question(0);
    const buyOn = await question(0);
    const placed = await driveLoops(
      (i) => placePredictionOrder({ caller: callers[2 + (i % CONNECTIONS)]!, marketId: placeOn, outcome: i % 2 ? 'YES' : 'NO', amount: '2', limitPrice: '0.2' }),
      { seconds: SECONDS, connections: CONNECTIONS },
    );
    const bought = await driveLoops((i) => buyShares({ caller: callers[2 + (i % CONNECTIONS)]!, marketId: buyOn, outcome: i % 2 ? 'YES' : 'NO', amount: '2' }), {
      seconds: SECONDS,
      connections: CONNECTIONS,
    });
    console.log(`  placements: ${placed.rps.toFixed(0)}/s (p50 ${placed.p50.toFixed(1)} ms, p99 ${placed.p99.toFixed(1)} ms); plain buys: ${bought.rps.toFixed(0)}/s (p50 ${bought.p50.toFixed(1)} ms)`);
    ctx.figures.push({
      name: 'order placement',
      project: placed.rps,
      reference: bought.rps,
      unit: 'req/s',
      higherIsBetter: true,
      referenceIs: 'plain market buys on a question with no book, same loops',
    });

    await benchStopTriggers({ ...ctx, direct, users: users.map((u) => u.id), callers });
  } finally {
    process.env.STARTING_BALANCE = saved;
    await direct.end();
    await closeLibDb();
    await admin.unsafe(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }
};

/**
 * Figure 4: the admin price route's mark move (setMarkPrice: the mark, then the orders it fires,
 * then the liquidation sweep) on a ticker with 100,000 resting stop-losses of which 100 are
 * crossed, against the same move on a ticker with 100 resting, all crossed. The stops sit on
 * copies of one real position (SQL, untimed setup); the 100 crossed ones close their positions.
 */
async function benchStopTriggers(ctx: { figures: TFigure[]; direct: postgres.Sql; users: string[]; callers: ReturnType<typeof callerOfUser>[] }) {
  const { direct } = ctx;
  const { openPosition } = await import('@/lib/perps/service/open-position');
  const { setMarkPrice } = await import('@/lib/perps/service/set-price');
  const tickers = (await direct.unsafe(`select ticker, mark_price from perp_markets order by ticker limit 2`)) as unknown as { ticker: string; mark_price: string }[];
  if (tickers.length < 2) throw new Error('orders bench: the world has fewer than two tickers');
  const columns = ((await direct.unsafe(
    `select column_name from information_schema.columns where table_name = 'perp_positions' and column_name <> 'id' and is_generated = 'NEVER' order by ordinal_position`,
  )) as unknown as { column_name: string }[]).map((c) => `"${c.column_name}"`);
  const cols = columns.join(', ');
  const caller = ctx.callers[1]!;

  /** `n` copies of a 2x long on `ticker`, each with a stop-loss at `trigger`. */
  const seedStops = async (ticker: string, n: number, trigger: string) => {
    const r = await openPosition({ caller, ticker, side: 'long', size: '100', leverage: '2' });
    await direct.unsafe(
      `with copies as (
         insert into perp_positions (id, ${cols})
         select gen_random_uuid()::text, ${cols} from perp_positions, generate_series(1, $2) where id = $1
         returning id, user_id, ticker
       )
       insert into perp_orders (id, user_id, ticker, type, side, trigger_price, fires_when, position_id, status, created_at, updated_at)
       select gen_random_uuid()::text, user_id, ticker, 'stop_loss', 'long', $3::numeric, 'below', id, 'open', now(), now() from copies`,
      [r.position.id, n, trigger],
    );
  };
  const timeMove = async (ticker: string, mark: string) => {
    const t0 = performance.now();
    await setMarkPrice({ ticker, price: mark });
    return performance.now() - t0;
  };
  const results: Record<string, number[]> = { big: [], small: [] };
  for (const [key, t, resting] of [['big', tickers[0]!, 100_000], ['small', tickers[1]!, 0]] as const) {
    const mark = Number(t.mark_price);
    if (resting) await seedStops(t.ticker, resting, (mark * 0.5).toFixed(4));
    for (let round = 0; round < 3; round++) {
      await seedStops(t.ticker, 100, (mark * 0.99).toFixed(4));
      results[key]!.push(await timeMove(t.ticker, (mark * 0.985).toFixed(4)));
      await setMarkPrice({ ticker: t.ticker, price: mark.toFixed(4) });
    }
    const [row] = (await direct.unsafe(`select count(*)::int as n from perp_orders where ticker = $1 and status = 'triggered'`, [t.ticker])) as unknown as { n: number }[];
    if (Number(row?.n) !== 300) throw new Error(`orders bench: ${row?.n} stops fired on ${t.ticker}, expected 300`);
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  console.log(`  mark move firing 100 stops: ${median(results.big!).toFixed(0)} ms beside 100,000 resting, ${median(results.small!).toFixed(0)} ms with 100 resting`);
  ctx.figures.push({
    name: 'mark move, 100 of 100k',
    project: median(results.big!),
    reference: median(results.small!),
    unit: 'ms/move',
    higherIsBetter: false,
    referenceIs: 'the same move with only the 100 crossed stops resting',
  });
}
