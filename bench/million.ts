/**
 * Figures "a million players" (BENCH_ONLY=million; opt-in: a plain `npm run bench` skips it).
 *
 * On a throwaway database of its own (created, migrated by opening db/client.ts on it, seeded by
 * seedWorld, dropped at the end), no server: a world of R players is built in set-based SQL, measured,
 * then grown to N players and measured again, through the same code the routes and the scheduler
 * call, in this process: runGameTick (as POST /api/cron/game-tick, test clock), readLeaderboard
 * (GET /api/leaderboard), listPosts (GET /api/posts, page 1 with its total, and the following
 * feed), buyShares (POST /api/markets/predictions/{id}/buy), listTickers (GET /api/markets/perps) and
 * a new season's seating (seatNewSeasonStep, as the tick's league step takes it: its slowest step). Each figure prints the value at N
 * beside the same at R (ratio N / R); the tick's per-step timings (and `costs`, when the tick
 * reports them) are printed for both sizes. Goal: a tick under 10 s at N.
 *
 * Per player g (ids `m-u-<g>`, subjects `bench-m|<g>`): one user row with points (a fifth none,
 * most 1..99, 3% up to 5,000) paid by a points_transactions row, its standings row (the users
 * insert trigger) with earned points set and its mark cleared; one open perp position (50 margin,
 * 2x, long/short in turn over the tickers, liquidation at ±50%) whose margin and fee left the
 * balance through a `perp_open` ledger row after the `deposit` of 1,000; every tenth player a
 * resting GTC limit order of 10 on one of 50 questions at 0.05 (out of reach of any buy), reserved
 * by an `order_reserve` row; 10 posts each. 1,000 players of each size follow 50 others (the
 * following feed). So balances are the newest balanceAfter and the order counters match the book.
 *
 * Environment: BENCH_MILLION_N (default 1,000,000), BENCH_MILLION_REF (the reference size,
 * default N / 10), BENCH_MILLION_SAMPLES (reads and buys timed per figure, default 30,
 * each at most 30 s beyond 3, after an untimed first call), BENCH_MILLION_KEEP=1 keeps the database (prints its name).
 */
import postgres from 'postgres';
import type { TFigure } from './figures';
import { percentile } from './figures';
import { closeLibDb, openLibDb } from './pools';

const N = Number(process.env.BENCH_MILLION_N ?? 1_000_000);
const R = Number(process.env.BENCH_MILLION_REF ?? Math.round(N / 10));
const SAMPLES = Number(process.env.BENCH_MILLION_SAMPLES ?? 30);
const QUESTIONS = 50;
const USER_BATCH = 100_000;
const POST_BATCH = 1_000_000;
const FOLLOWERS = 1_000;
const FOLLOWS_EACH = 50;
const BUYERS = 16;
const TICK_GOAL_MS = 10_000;
const STEADY_TICKS = 3;
/** Time spent sampling one read at most (beyond 3 samples). */
const SAMPLE_BUDGET_MS = 30_000;

const seconds = (t0: number) => ((performance.now() - t0) / 1000).toFixed(1);
const median = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);
const p90 = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 90);

/** Times `fn` one at a time after an untimed first call: SAMPLES times, or fewer (3 at least) past `budgetMs`. */
const sample = async (fn: (i: number) => Promise<unknown>, budgetMs = SAMPLE_BUDGET_MS) => {
  await fn(-1);
  const out: number[] = [];
  const deadline = performance.now() + budgetMs;
  for (let i = 0; i < SAMPLES && (i < 3 || performance.now() < deadline); i++) {
    const t0 = performance.now();
    await fn(i);
    out.push(performance.now() - t0);
  }
  return out;
};

type TTick = { ms: number; skipped?: boolean; timings?: Record<string, number>; costs?: unknown; errors?: unknown; durationMs?: number };
type TMeasure = { steady: TTick; funding: TTick; leaderboard: number[]; feedAll: number[]; feedFollowing: number[]; buy: number[]; tickers: number[]; seatMs: number };

/** Batches [from, to) of at most `size`. */
const batches = (from: number, to: number, size: number) => {
  const out: [number, number][] = [];
  for (let a = from; a < to; a += size) out.push([a, Math.min(to, a + size)]);
  return out;
};

/** Adds players from+1..to (and their positions, orders, posts, follows) in set-based SQL. */
const grow = async (sql: postgres.Sql, from: number, to: number, superuser: boolean) => {
  const tAll = performance.now();
  const [{ t: tickers }] = (await sql`select count(*)::int as t from perp_markets`) as unknown as [{ t: number }];
  let t0 = performance.now();
  for (const [a, b] of batches(from, to, USER_BATCH)) {
    // Points: a fifth none, most 1..99, 3% up to 5,000 more (ties and a head).
    await sql.begin(async (tx) => {
      // As a superuser, the batch skips the triggers (foreign-key checks, the standings insert and
      // mark) and writes the standings rows the insert trigger would write itself, points earned.
      if (superuser) await tx`set local session_replication_role = replica`;
      await tx`
        insert into users (id, auth_subject, username, display_name, referral_code, virtual_balance, total_deposited, reputation_points, created_at, updated_at)
        select 'm-u-' || g, 'bench-m|' || g, 'm_player_' || g, 'Million player ' || g, 'MREF' || g,
          case when g % 10 = 0 then 939.9 else 949.9 end, 1000,
          case when g % 5 = 0 then 0 else 1 + (g::bigint * 7919) % 99 + case when g % 33 = 0 then (g::bigint * 104729) % 5000 else 0 end end,
          now() - interval '2 days' - (g || ' seconds')::interval, now()
        from generate_series(${a + 1}::int, ${b}::int) g`;
      await tx`
        insert into balance_transactions (id, user_id, type, amount, balance_before, balance_after, description, reference_type, reference_id, created_at)
        select 'm-bt-' || g || '-' || k, 'm-u-' || g, x.type, x.amount, x.before, x.after, x.descr, x.rtype, x.rid || g, now() - interval '2 days' + (k || ' seconds')::interval
        from generate_series(${a + 1}::int, ${b}::int) g
          cross join lateral (values
            (1, 'deposit', 1000.0, 0.0, 1000.0, 'Starting balance', null::text, null::text),
            (2, 'perp_open', -50.1, 1000.0, 949.9, 'Opened a position', 'perp_position', 'm-p-'),
            (3, 'order_reserve', -10.0, 949.9, 939.9, 'Limit order reserved', 'prediction_order', 'm-o-')
          ) as x(k, type, amount, before, after, descr, rtype, rid)
        where x.k < 3 or g % 10 = 0`;
      await tx`
        insert into points_transactions (id, user_id, amount, points_before, points_after, reason, created_at)
        select 'm-pt-' || u.id, u.id, u.reputation_points, 0, u.reputation_points, 'bench:activity', u.created_at
        from users u where u.id in (select 'm-u-' || g from generate_series(${a + 1}::int, ${b}::int) g) and u.reputation_points > 0`;
      if (superuser) {
        await tx`
          insert into standings (user_id, kind, listed, points, earned_points, referral_points, lifetime_pnl, refreshed_at, created_at)
          select u.id, 'user', true, u.reputation_points, u.reputation_points, 0, 0, u.created_at, u.created_at
          from users u where u.id in (select 'm-u-' || g from generate_series(${a + 1}::int, ${b}::int) g)`;
      } else {
        // The insert trigger listed each account with its points; they were all earned (no referral).
        await tx`
          update standings s set earned_points = s.points
          where s.user_id in (select 'm-u-' || g from generate_series(${a + 1}::int, ${b}::int) g) and s.points > 0`;
        await tx`delete from standings_dirty where user_id in (select 'm-u-' || g from generate_series(${a + 1}::int, ${b}::int) g)`;
      }
    });
  }
  console.log(`  players ${from + 1}..${to}: users, ledger, points, standings in ${seconds(t0)} s`);

  t0 = performance.now();
  for (const [a, b] of batches(from, to, USER_BATCH * 2)) {
    await sql.begin(async (tx) => {
      if (superuser) await tx`set local session_replication_role = replica`;
      await tx`
      insert into perp_positions (id, user_id, ticker, side, size, units, entry_price, leverage, margin, collateral, funding_paid,
        liquidation_price, funding_index_entry, open_fee, status, opened_at, updated_at)
      select 'm-p-' || g, 'm-u-' || g, m.ticker, case when g % 2 = 0 then 'long' else 'short' end,
        100, trunc(100 / m.mark_price, 8), m.mark_price, 2, 50, 50, 0,
        case when g % 2 = 0 then m.mark_price * 0.5 else m.mark_price * 1.5 end, m.funding_index, 0.1, 'open',
        now() - interval '1 day', now()
      from generate_series(${a + 1}::int, ${b}::int) g
        join (select ticker, mark_price, funding_index, row_number() over (order by ticker) - 1 as i from perp_markets) m on m.i = g % ${tickers}`;
    });
  }
  console.log(`  ${to - from} open perp positions in ${seconds(t0)} s`);

  t0 = performance.now();
  await sql`
    with q as (select id, row_number() over (order by id) - 1 as i from markets where id like 'm-q-%' or id = (select id from markets where text like 'Million buy question%' limit 1)),
    ins as (
      insert into prediction_orders (id, user_id, market_id, outcome, limit_price, amount, status, time_in_force, created_at, updated_at)
      select 'm-o-' || g, 'm-u-' || g, q.id, case when (g / 10) % 2 = 0 then 'YES' else 'NO' end, 0.05, 10, 'open', 'GTC',
        now() - interval '1 day', now()
      from generate_series(${from + 1}::int, ${to}::int) g join q on q.i = (g / 10) % ${QUESTIONS}
      where g % 10 = 0
      returning market_id, outcome
    )
    update markets m set open_yes_orders = m.open_yes_orders + c.yes, open_no_orders = m.open_no_orders + c.no
    from (select market_id, count(*) filter (where outcome = 'YES')::int as yes, count(*) filter (where outcome = 'NO')::int as no from ins group by market_id) c
    where m.id = c.market_id`;
  console.log(`  ${Math.floor(to / 10) - Math.floor(from / 10)} resting limit orders in ${seconds(t0)} s`);

  t0 = performance.now();
  for (const [a, b] of batches(10 * from, 10 * to, POST_BATCH)) {
    await sql.begin(async (tx) => {
      if (superuser) await tx`set local session_replication_role = replica`;
      await tx`
      insert into posts (id, author_id, type, content, created_at, updated_at, likes_count, comments_count, shares_count)
      select 'm-post-' || g, 'm-u-' || ((g + 9) / 10), 'post', 'Seeded post number ' || g || ' about the markets',
        now() - interval '1 hour' - (g || ' seconds')::interval, now(), g % 7, g % 3, 0
      from generate_series(${a + 1}::bigint, ${b}::bigint) g`;
    });
  }
  console.log(`  ${10 * (to - from)} posts in ${seconds(t0)} s`);

  t0 = performance.now();
  const followers = Math.min(FOLLOWERS, to - from);
  await sql.begin(async (tx) => {
    if (superuser) await tx`set local session_replication_role = replica`;
    await tx`
    insert into follows (follower_id, following_id, created_at)
    select 'm-u-' || (${from}::int + c), 'm-u-' || (1 + ((c * ${FOLLOWS_EACH} + k)::bigint * 6151) % ${to}::int), now()
    from generate_series(1, ${followers}::int) c, generate_series(1, ${FOLLOWS_EACH}::int) k
    on conflict do nothing`;
  });
  // The follow trigger marked the followed (a superuser's batches left none).
  await sql`delete from standings_dirty where user_id like 'm-u-%'`;
  console.log(`  ${followers} followers of ${FOLLOWS_EACH} in ${seconds(t0)} s`);

  if (superuser) {
    // The batches skipped the triggers that keep counts (migrations 0032, 0034, 0035): the new rows'
    // counts, as those triggers would have kept them.
    t0 = performance.now();
    const grown = sql`(select 'm-u-' || g from generate_series(${from + 1}::int, ${to}::int) g)`;
    await sql`
      update perp_markets m set open_units_long = coalesce(s.long, 0), open_units_short = coalesce(s.short, 0)
      from (select ticker, sum(units) filter (where side = 'long') as long, sum(units) filter (where side = 'short') as short
            from perp_positions where status = 'open' group by ticker) s
      where s.ticker = m.ticker`;
    await sql`
      insert into account_totals (user_id, trades, contributions, flow_predictions, flow_perps, flow_pools)
      select n.user_id, count(*) filter (where c.is_trade), coalesce(sum(n.amount) filter (where c.class = 'contribution'), 0),
        coalesce(sum(n.amount) filter (where c.class = 'predictions'), 0), coalesce(sum(n.amount) filter (where c.class = 'perps'), 0),
        coalesce(sum(n.amount) filter (where c.class = 'pools'), 0)
      from balance_transactions n join ledger_type_classes c on c.type = n.type
      where n.user_id in ${grown} group by n.user_id`;
    await sql`
      with counted as (
        insert into post_counts (author_id, type, n)
        select author_id, type, count(*) from posts where author_id in ${grown} group by author_id, type
        returning type, n
      )
      insert into post_totals as t (type, shard, n)
      select type, 0, sum(n) from counted group by type
      on conflict (type, shard) do update set n = t.n + excluded.n`;
    console.log(`  kept counts of the new rows in ${seconds(t0)} s`);
  }

  t0 = performance.now();
  for (const t of ['users', 'standings', 'balance_transactions', 'points_transactions', 'perp_positions', 'prediction_orders', 'markets', 'posts', 'follows', 'account_totals', 'post_counts']) {
    await sql.unsafe(`vacuum analyze ${t}`);
  }
  console.log(`  vacuum analyze in ${seconds(t0)} s; grown to ${to.toLocaleString('en')} players in ${seconds(tAll)} s`);
};

export const benchMillion = async (ctx: { baseUrl: string; figures: TFigure[]; poolMax: number }) => {
  const dbName = `pm_million_${Date.now()}`;
  const admin = postgres(ctx.baseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${dbName}`);
  const url = new URL(ctx.baseUrl);
  url.pathname = `/${dbName}`;
  const databaseUrl = url.toString();
  const keys = ['STARTING_BALANCE', 'DATABASE_URL', 'DB_POOL_MAX', 'ALLOW_TEST_CLOCK', 'LOCAL_SCHEDULER'] as const;
  const saved = Object.fromEntries(keys.map((k) => [k, process.env[k]]));
  // Bulk loading: no wait for the WAL flush per batch, room for index work.
  const sql = postgres(databaseUrl, {
    max: 2,
    onnotice: () => {},
    connection: { synchronous_commit: 'off', maintenance_work_mem: '512MB', work_mem: '64MB' },
  });
  await closeLibDb();
  try {
    console.log(`\nA million players: N = ${N.toLocaleString('en')} beside R = ${R.toLocaleString('en')}, services in this process, database ${dbName}…`);
    const tStart = performance.now();
    process.env.STARTING_BALANCE = '1000000';
    process.env.ALLOW_TEST_CLOCK = '1';
    process.env.LOCAL_SCHEDULER = '0';
    const db = await openLibDb(databaseUrl, ctx.poolMax);
    const { seedWorld } = await import('@/lib/world/seed/world');
    const { provisionUser } = await import('@/lib/users/service/provision-user');
    const { createMarket } = await import('@/lib/markets/service/create-market');
    const { buyShares } = await import('@/lib/markets/service/buy-shares');
    const { callerOfUser } = await import('@/lib/auth/caller');
    const { runGameTick } = await import('@/lib/game/tick');
    const { now: clockNow } = await import('@/lib/clock/clock');
    const { readLeaderboard } = await import('@/lib/standings/service/read-leaderboard');
    const { listPosts } = await import('@/lib/posts/service/read-posts');
    const { refreshAllStandings } = await import('@/lib/standings/refresh');
    const { listTickers } = await import('@/lib/perps/service/read');
    const { seatNewSeasonStep } = await import('@/lib/leagues/service/seasons');
    await seedWorld(db);
    const buyers = await Promise.all(Array.from({ length: BUYERS }, (_, i) => provisionUser({ subject: `bench-m-buyer|${i}` })));
    const buyCallers = buyers.map((u) => callerOfUser(u));
    const buyMarket = await createMarket({ caller: null, text: 'Million buy question: does the book hold?', resolutionDate: new Date(Date.now() + 30 * 86_400_000), liquidity: 100000 });
    await sql`
      insert into markets (id, text, yes_shares, no_shares, liquidity, resolution_date, created_at)
      select 'm-q-' || g, 'Million question ' || g || '?', 500, 500, 1000, now() + ((2 + g % 7) || ' days')::interval, now()
      from generate_series(1, ${QUESTIONS - 1}::int) g`;
    // The seed's own marks, so the fixture starts with none left.
    for (let i = 0; i < 20; i++) {
      await refreshAllStandings();
      const [{ n }] = (await sql`select count(*)::int as n from standings_dirty`) as unknown as [{ n: number }];
      if (n === 0) break;
    }
    console.log(`  seed world, ${BUYERS} buyers, ${QUESTIONS} questions in ${seconds(tStart)} s`);

    let gameTime = 0;
    const tick = async (): Promise<TTick> => {
      // The next game minute, and never behind the game clock (wall time plus what earlier ticks
      // moved it: after a slow build or tick the requested minute would be the last tick's, a skip).
      gameTime = Math.max(gameTime, clockNow().getTime()) + 60_000;
      const t0 = performance.now();
      const r = (await runGameTick({ now: new Date(gameTime).toISOString() })) as Record<string, unknown>;
      const ms = performance.now() - t0;
      if (r.skipped || r.paused) console.log(`  note: tick answered ${JSON.stringify(r).slice(0, 300)}`);
      if (r.errors) console.log(`  note: tick step errors ${JSON.stringify(r.errors).slice(0, 400)}`);
      return { ms, skipped: Boolean(r.skipped || r.paused), timings: r.timings as Record<string, number> | undefined, costs: r.costs, errors: r.errors, durationMs: r.durationMs as number | undefined };
    };
    const slowSteps = (t: TTick) =>
      Object.entries(t.timings ?? {})
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${v}`)
        .join(', ');
    const tickLine = (t: TTick) => `${t.ms.toFixed(0)} ms [${slowSteps(t)}]${t.costs === undefined ? '' : `\n      costs ${JSON.stringify(t.costs)}`}`;

    const measure = async (size: number): Promise<TMeasure> => {
      const label = size.toLocaleString('en');
      console.log(` Measuring at ${label} players…`);
      const warm = await tick();
      console.log(`  warm-up tick @${label}: ${tickLine(warm)}`);
      const steadies: TTick[] = [];
      for (let i = 0; i < STEADY_TICKS; i++) {
        const t = await tick();
        steadies.push(t);
        console.log(`  steady tick ${i + 1} @${label}: ${tickLine(t)}`);
      }
      const ran = steadies.filter((t) => !t.skipped);
      const steady = ran.length ? [...ran].sort((a, b) => a.ms - b.ms)[Math.floor(ran.length / 2)]! : steadies[0]!;
      // A funding period due: move the last payment back a period (every position is open across it).
      await sql`update perp_markets set last_funding_at = last_funding_at - interval '8 hours'`;
      const funding = await tick();
      console.log(`  funding-due tick @${label}: ${tickLine(funding)}`);

      const pages = Math.max(1, Math.min(1_000, Math.floor(size / 100)));
      const boards = ['all', 'earned', 'referral'] as const;
      const leaderboard = await sample(async (i) => {
        const callerId = i % 2 === 0 ? `m-u-${1 + Math.floor(Math.random() * size)}` : undefined;
        const out = await readLeaderboard({ page: 1 + Math.floor(Math.random() * pages), pageSize: 100, pointsType: boards[Math.abs(i) % 3]!, callerId });
        if (i === 0 && out.leaderboard.length === 0) console.log('  note: an empty leaderboard page');
      });
      // The following feed's readers: this size's 1,000 followers (each follows 50 of all players).
      const from = size === R ? 0 : R;
      const readerRows = await sql`select * from users where id = any(${Array.from({ length: 20 }, (_, i) => `m-u-${from + 1 + i}`)})`;
      const readers = readerRows.map((u) =>
        callerOfUser({ id: u.id as string, username: u.username as string, isAdmin: false, isAgent: false, referredById: null }),
      );
      const reader = (i: number) => readers[Math.abs(i) % readers.length]!;
      const feedAll = await sample(async (i) => {
        const page = await listPosts({ caller: reader(i), page: 1, limit: 20 });
        if (i === 0 && page.posts.length === 0) console.log('  note: an empty feed page');
      });
      const feedFollowing = await sample(async (i) => {
        const page = await listPosts({ caller: reader(i), page: 1, limit: 20, following: true });
        if (i === 0 && page.posts.length === 0) console.log('  note: an empty following feed page');
      });
      const buy = await sample((i) =>
        buyShares({ caller: buyCallers[Math.abs(i) % BUYERS]!, marketId: buyMarket.id, outcome: i % 2 ? 'YES' : 'NO', amount: '5' }),
      );
      // The perps tickers with their open interest and 24 h volume (GET /api/markets/perps): every
      // player holds an open position, so a read that summed them would grow with the world.
      const tickers = await sample(() => listTickers());
      const ms = (xs: number[]) => `p50 ${median(xs).toFixed(1)} ms, p90 ${p90(xs).toFixed(1)} ms`;
      console.log(
        `  @${label}: leaderboard ${ms(leaderboard)}; feed page 1 (with total) ${ms(feedAll)}; following feed ${ms(feedFollowing)}; buy ${ms(buy)}; perps tickers ${ms(tickers)} (${leaderboard.length}, ${feedAll.length}, ${feedFollowing.length}, ${buy.length}, ${tickers.length} samples, one at a time)`,
      );
      // A new season's whole field seated (the weekly step that still reads every player, now one
      // set-based statement): every listed account closed on a day of its own at its balance, in a
      // season of its own (closed, so no tick takes it up).
      const seatDay = size === R ? '2001-01-01' : '2001-01-02';
      const seatSeason = `bench-seat-${size}`;
      await sql`insert into equity_snapshots (user_id, day, equity, flows, lifetime_pnl, created_at)
        select s.user_id, ${seatDay}::date, u.virtual_balance, 0, 0, now() from standings s join users u on u.id = s.user_id where s.listed
        on conflict do nothing`;
      await sql`insert into league_seasons (id, starts_at, ends_at, status) values (${seatSeason}, '2001-01-01', '2001-01-08', 'closed') on conflict do nothing`;
      // Taken as the tick takes it: a batch of phases per call until done; the figure is the
      // slowest call (what one tick pays), the whole is printed.
      let seated = 0;
      let calls = 0;
      let seatMs = 0;
      const tSeat = performance.now();
      for (let done = false; !done; calls++) {
        const t = performance.now();
        const r = await seatNewSeasonStep(seatSeason, seatDay, new Date());
        seatMs = Math.max(seatMs, performance.now() - t);
        seated += r.seated;
        done = r.done;
      }
      console.log(`  @${label}: a new season's seating: ${seated.toLocaleString('en')} accounts in ${calls} steps, ${((performance.now() - tSeat) / 1000).toFixed(1)} s in all, the slowest step ${seatMs.toFixed(0)} ms`);
      return { steady, funding, leaderboard, feedAll, feedFollowing, buy, tickers, seatMs };
    };

    const [{ superuser }] = (await sql`select rolsuper as superuser from pg_roles where rolname = current_user`) as unknown as [{ superuser: boolean }];
    let t0 = performance.now();
    console.log(` Building ${R.toLocaleString('en')} players…`);
    await grow(sql, 0, R, superuser);
    const buildRef = seconds(t0);
    const ref = await measure(R);
    t0 = performance.now();
    console.log(` Growing to ${N.toLocaleString('en')} players…`);
    await grow(sql, R, N, superuser);
    const buildN = seconds(t0);
    const big = await measure(N);
    const [{ size }] = (await sql`select pg_size_pretty(pg_database_size(current_database())) as size`) as unknown as [{ size: string }];
    console.log(`  build: ${buildRef} s to ${R.toLocaleString('en')}, then ${buildN} s to ${N.toLocaleString('en')}; database ${size}; whole figure ${seconds(tStart)} s`);

    const kN = N >= 1_000_000 ? `${N / 1_000_000}M` : `${N / 1000}k`;
    const kR = R >= 1_000_000 ? `${R / 1_000_000}M` : `${R / 1000}k`;
    const referenceIs = `the same at ${kR}`;
    const lower = { unit: 'ms', higherIsBetter: false, referenceIs };
    ctx.figures.push({ name: `tick steady ${kN}`, project: big.steady.ms, reference: ref.steady.ms, ...lower });
    ctx.figures.push({ name: `tick + funding ${kN}`, project: big.funding.ms, reference: ref.funding.ms, ...lower });
    ctx.figures.push({ name: `tick steady ${kN} vs goal`, project: big.steady.ms, reference: TICK_GOAL_MS, unit: 'ms', higherIsBetter: false, referenceIs: 'the 10 s goal' });
    ctx.figures.push({ name: `leaderboard p50 ${kN}`, project: median(big.leaderboard), reference: median(ref.leaderboard), ...lower });
    ctx.figures.push({ name: `feed page 1 p50 ${kN}`, project: median(big.feedAll), reference: median(ref.feedAll), ...lower });
    ctx.figures.push({ name: `following feed p50 ${kN}`, project: median(big.feedFollowing), reference: median(ref.feedFollowing), ...lower });
    ctx.figures.push({ name: `buy p50 ${kN}`, project: median(big.buy), reference: median(ref.buy), ...lower });
    ctx.figures.push({ name: `perps tickers p50 ${kN}`, project: median(big.tickers), reference: median(ref.tickers), ...lower });
    ctx.figures.push({ name: `season seating step ${kN}`, project: big.seatMs, reference: ref.seatMs, ...lower });
  } finally {
    await closeLibDb();
    await sql.end();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    const { resetEnvCache } = await import('@/lib/env');
    resetEnvCache();
    if (process.env.BENCH_MILLION_KEEP === '1') console.log(`  kept database ${dbName}`);
    else await admin.unsafe(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }
};
