/**
 * npm run bench: builds and starts the production server on a throwaway PostgreSQL database,
 * drives it with autocannon, and prints each figure next to a reference measured in the same
 * run: the same SQL issued directly through postgres.js at the same concurrency. A benchmark,
 * not a test: it reports and never fails on a number.
 *
 * Environment: BENCH_DATABASE_URL (server to create the throwaway database on; default the local
 * PostgreSQL), BENCH_SECONDS (per figure, default 10), BENCH_POOL (database connections of the
 * server and of the reference, default 8), BENCH_SKIP_BUILD=1 to reuse .next, BENCH_ONLY=a,b to run
 * only the named figures (floor, users-me, buy, perps, pools, sweep, feed, tick, sse, chats, a2a, mcp, api-keys, hostile, leaderboard, dbcost;
 * dbcost alone starts no server: bench/dbcost.ts; million, only when named, builds a million-player
 * world on a database of its own, no server: bench/million.ts), BENCH_NODE_ARGS to pass
 * flags to the server's node (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile a figure),
 * BENCH_DEV=1 to drive the development server instead (no build; checks that a figure runs, its
 * numbers mean little).
 */
import { execSync, spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { SignJWT } from 'jose';
import { PgDialect } from 'drizzle-orm/pg-core';
import postgres from 'postgres';
import { buildBuyStatement } from '@/lib/markets/service/buy-shares';
import { buildCloseStatement } from '@/lib/perps/service/close-position';
import { buildSweepStatement } from '@/lib/perps/service/liquidate';
import { buildOpenStatement } from '@/lib/perps/service/open-position';
import { buildFeedCountQuery, buildFeedPageQuery, buildPostsQuery } from '@/lib/posts/queries';
import { dec } from '@/lib/money/decimal';
import { benchA2aMarketData } from './a2a';
import { benchApiKeyAuth } from './api-keys';
import { benchMcpToolCall } from './mcp';
import { benchChatSendDeliver } from './chats';
import { benchHostileLoad } from './hostile';
import { benchLeaderboard } from './leaderboard';
import { benchPoolRoundTrip, closeLibDb } from './pools';
import { benchSseFanout } from './sse';
import { BENCH_CRON_SECRET, benchTick } from './tick';
import { benchDbCost } from './dbcost';
import { benchHistoryWrite } from './history';
import { benchOrders } from './orders';
import { benchMillion } from './million';
import { driveLoops, type TFigure } from './figures';
import { benchFloor } from './floor';
import { benchWorkers } from './workers';

const BASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;
/**
 * PostgreSQL connections of the server's pool and of the reference's, the same for both. Fewer
 * connections than clients is faster here: postgres.js pipelines several statements into one
 * socket write, and each write wakes the database (the measured cost on this 2-core machine).
 */
const POOL = Number(process.env.BENCH_POOL ?? 8);
const PORT = Number(process.env.BENCH_PORT ?? 3400);
// A production server refuses secrets under 32 bytes and two equal ones (lib/env.ts).
const SECRET = 'bench-jwt-secret-for-the-benchmarks-0123456789';
const SESSION_SECRET = 'bench-session-secret-for-the-benchmarks-01234';
// Rate limits are per user (1000/min): rotate enough users that the benchmark measures the
// endpoint, not the 429 path.
const USERS = 400;

const figures: TFigure[] = [];

const token = (sub: string) =>
  new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).setExpirationTime('2h').sign(new TextEncoder().encode(SECRET));

/** Runs `work` from CONNECTIONS concurrent loops for SECONDS; returns rps and latency percentiles (ms). */
const drive = (work: (i: number) => Promise<unknown>) => driveLoops(work, { seconds: SECONDS, connections: CONNECTIONS });

/**
 * Figure 2: prediction buys, 32 clients over 20 markets through the API, against the same
 * statements of one buy issued directly through postgres.js.
 */
const benchPredictionBuy = async (ctx: { base: string; sql: postgres.Sql; tokens: string[]; subjects: string[] }) => {
  const { base, sql, tokens, subjects } = ctx;
  const adminToken = await token('bench|admin');
  const marketIds: string[] = [];
  for (let i = 0; i < 20; i++) {
    const res = await fetch(`${base}/api/admin/markets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: `Benchmark question number ${i + 1}?`, resolutionDate: new Date(Date.now() + 30 * 86_400_000).toISOString(), liquidity: 100000 }),
    });
    const body = (await res.json()) as { market?: { id: string } };
    if (!body.market) throw new Error(`could not create a market: ${JSON.stringify(body)}`);
    marketIds.push(body.market.id);
  }
  console.log(`\nPOST /api/markets/predictions/{id}/buy: ${CONNECTIONS} connections over 20 markets, ${SECONDS}s…`);
  // Buys over 20 markets from USERS callers; with a key prefix, each buy carries its own key.
  const driveBuys = async (keyPrefix?: string) => {
    let n = 0;
    const run = await autocannon({
      url: base,
      connections: CONNECTIONS,
      duration: SECONDS,
      requests: [
        {
          setupRequest: (req) => {
            const i = n++;
            return {
              ...req,
              method: 'POST',
              path: `/api/markets/predictions/${marketIds[i % 20]}/buy`,
              headers: {
                ...req.headers,
                'content-type': 'application/json',
                authorization: `Bearer ${tokens[i % USERS]}`,
                ...(keyPrefix ? { 'idempotency-key': `${keyPrefix}-${i}` } : {}),
              },
              body: JSON.stringify({ outcome: i % 3 ? 'YES' : 'NO', amount: 1 + (i % 10) }),
            };
          },
        },
      ],
    });
    if (run.non2xx > 0) console.log(`  note: ${run.non2xx} non-2xx answers during the ${keyPrefix ? 'keyed ' : ''}run`);
    return run;
  };
  const result = await driveBuys();
  const tradesPerSecond = (result.requests.total - result.non2xx) / SECONDS;

  // The reference: exactly the statements one buy issues (the caller by token subject, which
  // also gives the referrer, then the buy statement built by the service itself), sent directly
  // through postgres.js, prepared as the service sends them (db/client.ts executePrepared).
  const dialect = new PgDialect();
  const ref = await drive(async (i) => {
    const [buyer] = await sql`select * from users where auth_subject = ${subjects[i % subjects.length]!}`;
    const { statement } = buildBuyStatement({
      userId: buyer!.id as string,
      marketId: marketIds[i % 20]!,
      outcome: i % 3 ? 'YES' : 'NO',
      amount: dec(1 + (i % 10)),
      referrerId: (buyer?.referred_by_id as string | null) ?? null,
      at: new Date(),
    });
    const q = dialect.sqlToQuery(statement);
    await sql.unsafe(q.sql, q.params as never[], { prepare: true });
  });
  figures.push({ name: 'prediction buy trades/s', project: tradesPerSecond, reference: ref.rps, unit: 'tx/s', higherIsBetter: true });
  figures.push({ name: 'prediction buy p50', project: result.latency.p50, reference: ref.p50, unit: 'ms', higherIsBetter: false });
  figures.push({ name: 'prediction buy p99', project: result.latency.p99, reference: ref.p99, unit: 'ms', higherIsBetter: false });

  // The same buys, each with its own Idempotency-Key: the request transaction that claims the key
  // and stores the answer (lib/idempotency), against the plain buys just measured.
  const keyed = await driveBuys(`bench-${Date.now().toString(36)}`);
  const keyedPerSecond = (keyed.requests.total - keyed.non2xx) / SECONDS;
  figures.push({ name: 'keyed buy trades/s (vs plain buy)', project: keyedPerSecond, reference: tradesPerSecond, unit: 'tx/s', higherIsBetter: true });
  figures.push({ name: 'keyed buy p50 (vs plain buy)', project: keyed.latency.p50, reference: result.latency.p50, unit: 'ms', higherIsBetter: false });
};

/**
 * Figure 3: perp open+close round trips, 32 clients over 7 tickers through the API (open, then
 * close the returned position), against the same statements issued directly: per request the
 * caller by token subject, the open statement and the ticker's liquidation sweep; then the same
 * for the close.
 */
const PERP_TICKERS = ['NEXA', 'QBIT', 'HELX', 'SOLR', 'ORBT', 'VRSE', 'KLDR'];
const benchPerpRoundTrip = async (ctx: { base: string; sql: postgres.Sql; tokens: string[]; subjects: string[] }) => {
  const { base, sql, tokens, subjects } = ctx;
  console.log(`\nPOST /api/markets/perps/open + close: ${CONNECTIONS} clients over ${PERP_TICKERS.length} tickers, ${SECONDS}s…`);
  let failures = 0;
  const post = async (path: string, token: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as { position?: { id: string } };
    if (!res.ok) failures++;
    return json;
  };
  const project = await drive(async (i) => {
    const token = tokens[i % USERS]!;
    const opened = await post('/api/markets/perps/open', token, { ticker: PERP_TICKERS[i % PERP_TICKERS.length], side: i % 2 ? 'long' : 'short', size: 100, leverage: 5 });
    if (opened.position) await post(`/api/markets/perps/${opened.position.id}/close`, token);
  });
  if (failures > 0) console.log(`  note: ${failures} non-2xx answers during the run`);
  const dialect = new PgDialect();
  // Prepared, as the services send these statements (db/client.ts executePrepared).
  const run = (statement: Parameters<PgDialect['sqlToQuery']>[0]) => {
    const q = dialect.sqlToQuery(statement);
    return sql.unsafe(q.sql, q.params as never[], { prepare: true });
  };
  const ref = await drive(async (i) => {
    const ticker = PERP_TICKERS[i % PERP_TICKERS.length]!;
    const [caller] = await sql`select * from users where auth_subject = ${subjects[i % USERS]!}`;
    const userId = caller!.id as string;
    const { statement, positionId } = buildOpenStatement({ userId, ticker, side: i % 2 ? 'long' : 'short', size: '100', leverage: '5', at: new Date() });
    await run(statement);
    await run(buildSweepStatement({ ticker, at: new Date() }));
    await sql`select * from users where auth_subject = ${subjects[i % USERS]!}`;
    await run(buildCloseStatement({ userId, positionId, at: new Date() }).statement);
    await run(buildSweepStatement({ ticker, at: new Date() }));
  });
  figures.push({ name: 'perp open+close trips/s', project: project.rps, reference: ref.rps, unit: 'rt/s', higherIsBetter: true });
  figures.push({ name: 'perp open+close p50', project: project.p50, reference: ref.p50, unit: 'ms', higherIsBetter: false });
  figures.push({ name: 'perp open+close p99', project: project.p99, reference: ref.p99, unit: 'ms', higherIsBetter: false });
};

/**
 * Figure 4: the liquidation sweep. 100,000 open longs on MNTL (mark 100) with liquidation prices
 * spread evenly over [50, 95); a move to 80 liquidates a third. The project's sweep runs through
 * the admin price endpoint; the reference is one hand-written statement doing the same writes
 * (mark, positions, trades, notifications, lifetime PnL). The fixture is rebuilt before each run.
 */
const SWEEP_POSITIONS = 100_000;
const benchLiquidationSweep = async (ctx: { base: string; sql: postgres.Sql }) => {
  const { base, sql } = ctx;
  console.log(`\nLiquidation sweep: ${SWEEP_POSITIONS} open positions, a move liquidating a third…`);
  const adminToken = await token('bench|admin');
  const owners = (await sql`select id from users where auth_subject like 'bench|%' and auth_subject <> 'bench|admin' limit 1000`).map((r) => r.id as string);
  const reset = async () => {
    await sql`delete from notifications where user_id = any(${owners})`;
    await sql`delete from perp_trades where ticker = 'MNTL'`;
    await sql`delete from perp_funding_payments where position_id in (select id from perp_positions where ticker = 'MNTL')`;
    await sql`delete from perp_positions where ticker = 'MNTL'`;
    await sql`update perp_markets set mark_price = 100 where ticker = 'MNTL'`;
    await sql`
      insert into perp_positions (id, user_id, ticker, side, size, units, entry_price, leverage, margin, collateral, funding_paid,
        liquidation_price, open_fee, status, opened_at, updated_at)
      select 'sweep-' || g, (${owners}::text[])[1 + g % ${owners.length}], 'MNTL', 'long', 1000, 10, 100, 10, 100, 100, 0,
        50 + 45.0 * g / ${SWEEP_POSITIONS}, 1, 'open', now(), now()
      from generate_series(0, ${SWEEP_POSITIONS - 1}) g`;
    await sql`analyze perp_positions`;
  };
  const timeIt = async (f: () => Promise<unknown>) => {
    const t0 = performance.now();
    await f();
    return performance.now() - t0;
  };
  const projectRun = () =>
    fetch(`${base}/api/admin/perps/MNTL/price`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ price: 80 }),
    }).then(async (r) => {
      const body = (await r.json()) as { liquidated?: number };
      if (body.liquidated !== Math.floor(SWEEP_POSITIONS / 3) + 1 && body.liquidated !== Math.floor(SWEEP_POSITIONS / 3)) {
        console.log(`  note: the project liquidated ${body.liquidated ?? JSON.stringify(body)} positions`);
      }
    });
  const referenceRun = async () => {
    const rows = await sql`
      with m as (update perp_markets set mark_price = 80 where ticker = 'MNTL' returning ticker, mark_price),
      liq as (
        update perp_positions p set status = 'liquidated', exit_price = m.mark_price,
          realized_pnl = trunc(p.units * (m.mark_price - p.entry_price), 8), net_pnl = -(p.margin + p.open_fee),
          close_fee = 0, closed_at = now(), updated_at = now()
        from m where p.ticker = m.ticker and p.status = 'open' and p.side = 'long' and p.liquidation_price >= 80
        returning p.id, p.user_id, p.ticker, p.side, p.size, p.exit_price, p.net_pnl
      ),
      booked as (
        update users u set lifetime_pnl = u.lifetime_pnl + s.pnl
        from (select user_id, sum(net_pnl) pnl from liq group by user_id) s where u.id = s.user_id
      ),
      trade as (
        insert into perp_trades (id, user_id, position_id, ticker, side, action, size, price, fee, realized_pnl, created_at)
        select gen_random_uuid()::text, user_id, id, ticker, side, 'liquidation', size, exit_price, 0, net_pnl, now() from liq
      ),
      note as (
        insert into notifications (id, user_id, type, title, message, read, created_at)
        select gen_random_uuid()::text, user_id, 'system', 'Position liquidated', 'Your position on ' || ticker || ' was liquidated.', false, now() from liq
      )
      select count(*)::int as n from liq`;
    if (rows[0]!.n < SWEEP_POSITIONS / 3 - 1) console.log(`  note: the reference liquidated ${rows[0]!.n} positions`);
  };
  const project: number[] = [];
  const reference: number[] = [];
  for (let round = 0; round < 3; round++) {
    await reset();
    project.push(await timeIt(projectRun));
    await reset();
    reference.push(await timeIt(referenceRun));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  figures.push({ name: 'liquidation sweep (100k)', project: median(project), reference: median(reference), unit: 'ms', higherIsBetter: false });
};

/**
 * Figure 5: the following feed. A seeded graph of 10,000 users and 200,000 posts (plus 10,000
 * reposts); each of the benchmark's 400 callers follows 50 of those users. GET
 * /api/posts?following=true&limit=20 through the API against the same statements issued
 * directly: the caller by token subject, the page, the posts of the page, the total.
 */
const GRAPH_USERS = 10_000;
const GRAPH_POSTS = 200_000;
const benchFeedRead = async (ctx: { base: string; sql: postgres.Sql; tokens: string[]; subjects: string[] }) => {
  const { base, sql, tokens, subjects } = ctx;
  console.log(`\nSeeding ${GRAPH_USERS} users, ${GRAPH_POSTS} posts and the follow graph…`);
  await sql`
    insert into users (id, username, display_name, referral_code, created_at, updated_at)
    select 'g' || g, 'graph_' || g, 'Graph user ' || g, 'GRAPH' || g, now(), now() from generate_series(1, ${GRAPH_USERS}) g`;
  await sql`
    insert into posts (id, author_id, type, content, created_at, updated_at, likes_count, comments_count, shares_count)
    select 'gp' || g, 'g' || (1 + (g * 7919) % ${GRAPH_USERS}), 'post', 'Seeded post number ' || g || ' #graph',
      now() - (g || ' seconds')::interval, now(), g % 7, g % 3, 0
    from generate_series(1, ${GRAPH_POSTS}) g`;
  await sql`
    insert into shares (id, post_id, user_id, created_at)
    select 'gs' || g, 'gp' || (1 + (g * 104729) % ${GRAPH_POSTS}), 'g' || (1 + (g * 31) % ${GRAPH_USERS}), now() - (g || ' seconds')::interval
    from generate_series(1, 10000) g on conflict do nothing`;
  const callerIds = (await sql`select id, auth_subject from users where auth_subject = any(${subjects})`).map((r) => r.id as string);
  await sql`
    insert into follows (follower_id, following_id, created_at)
    select c.id, 'g' || (1 + ((c.n * 50 + k) * 6151) % ${GRAPH_USERS}), now()
    from (select id, row_number() over () as n from unnest(${callerIds}::text[]) id) c, generate_series(1, 50) k
    on conflict do nothing`;
  await sql`analyze`;

  console.log(`GET /api/posts?following=true: ${CONNECTIONS} connections, ${SECONDS}s…`);
  let next = 0;
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          path: '/api/posts?following=true&limit=20',
          headers: { ...req.headers, authorization: `Bearer ${tokens[next++ % USERS]}` },
        }),
      },
    ],
  });
  if (result.non2xx > 0) console.log(`  note: ${result.non2xx} non-2xx answers during the run`);
  const dialect = new PgDialect();
  const run = (statement: Parameters<PgDialect['sqlToQuery']>[0]) => {
    const q = dialect.sqlToQuery(statement);
    return sql.unsafe(q.sql, q.params as never[]);
  };
  const ref = await drive(async (i) => {
    const [caller] = await sql`select * from users where auth_subject = ${subjects[i % USERS]!}`;
    const viewer = caller!.id as string;
    const source = { kind: 'following' as const, userId: viewer };
    const page = await run(buildFeedPageQuery(source, { limit: 20, offset: 0 }, viewer));
    await run(buildPostsQuery(page.map((r) => r.post_id as string), viewer));
    await run(buildFeedCountQuery(source, viewer));
  });
  figures.push({ name: 'feed read pages/s', project: result.requests.average, reference: ref.rps, unit: 'req/s', higherIsBetter: true });
  figures.push({ name: 'feed read p50', project: result.latency.p50, reference: ref.p50, unit: 'ms', higherIsBetter: false });
  figures.push({ name: 'feed read p99', project: result.latency.p99, reference: ref.p99, unit: 'ms', higherIsBetter: false });
};

/** Figure 1: GET /api/users/me through the API against the same SQL issued directly. */
const benchUsersMe = async (ctx: { base: string; sql: postgres.Sql; tokens: string[]; subjects: string[] }) => {
  const { base, sql, tokens, subjects } = ctx;
  console.log(`\nGET /api/users/me: ${CONNECTIONS} connections, ${SECONDS}s…`);
  let next = 0;
  const result = await autocannon({
    url: `${base}/api/users/me`,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          headers: { ...req.headers, authorization: `Bearer ${tokens[next++ % USERS]}` },
        }),
      },
    ],
  });
  const non2xx = result.non2xx;
  // The same SQL the endpoint issues: the caller by token subject, then the stats counts.
  const ref = await drive(async (i) => {
    const [user] = await sql`select * from users where auth_subject = ${subjects[i % USERS]!}`;
    const id = user!.id as string;
    await sql`select (select count(*)::int from users r where r.referred_by_id = ${id}) as referral_count,
      (select count(*)::int from balance_transactions t where t.user_id = ${id}
         and t.type in ('pred_buy','pred_sell','perp_open','perp_close')) as trades_count,
      (select count(*)::int from follows f where f.following_id = ${id}) as followers,
      (select count(*)::int from follows f where f.follower_id = ${id}) as following,
      (select count(*)::int from posts p where p.author_id = ${id}) as posts,
      (select count(*)::int from comments c where c.author_id = ${id} and c.deleted_at is null) as comments,
      (select count(*)::int from post_likes l where l.user_id = ${id}) as reactions,
      ((select count(*)::int from market_positions mp where mp.user_id = ${id} and mp.shares > 0 and mp.settled_at is null)
        + (select count(*)::int from perp_positions pp where pp.user_id = ${id} and pp.status = 'open')) as positions`;
  });
  figures.push({ name: 'users/me requests/s', project: result.requests.average, reference: ref.rps, unit: 'req/s', higherIsBetter: true });
  figures.push({ name: 'users/me p50 latency', project: result.latency.p50, reference: ref.p50, unit: 'ms', higherIsBetter: false });
  figures.push({ name: 'users/me p99 latency', project: result.latency.p99, reference: ref.p99, unit: 'ms', higherIsBetter: false });
  if (non2xx > 0) console.log(`  note: ${non2xx} non-2xx answers during the run`);
};

const main = async () => {
  const dbName = `pm_bench_${Date.now()}`;
  const admin = postgres(BASE_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${dbName}`);
  const url = new URL(BASE_URL);
  url.pathname = `/${dbName}`;
  const databaseUrl = url.toString();

  const dev = process.env.BENCH_DEV === '1';
  // dbcost and history call the services in this process on a database of their own: alone, they need no server.
  const needsServer = !process.env.BENCH_ONLY || process.env.BENCH_ONLY.split(',').some((x) => !['dbcost', 'history', 'orders', 'million'].includes(x.trim()));
  if (needsServer && process.env.BENCH_SKIP_BUILD !== '1' && !dev) {
    console.log('Building the production server…');
    execSync('npm run build', { stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  }
  const serverEnv: Record<string, string> = {
      ...(process.env as Record<string, string>),
      NODE_ENV: dev ? 'development' : 'production',
      PORT: String(PORT),
      DATABASE_URL: databaseUrl,
      AUTH_JWT_SECRET: SECRET,
      CRON_SECRET: BENCH_CRON_SECRET,
      SESSION_SECRET,
      LOCAL_SCHEDULER: '0',
      // The tick figure runs one tick per game minute, moving the test clock a minute each time.
      ALLOW_TEST_CLOCK: '1',
      DB_POOL_MAX: String(POOL),
      STARTING_BALANCE: '1000000',
      ADMIN_SUBJECTS: 'bench|admin',
      NEXT_TELEMETRY_DISABLED: '1',
      // One worker, so every figure compares with its reference as before; the workers figure
      // starts its own servers with one and with every worker (bench/workers.ts).
      WEB_CONCURRENCY: '1',
      // The framework floor: an empty route handler in the same build (404 without this).
      BENCH_EMPTY_ROUTE: '1',
  };
  const server = !needsServer ? undefined : spawn('node', [...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean), 'server.mjs', ...(dev ? ['--dev'] : [])], {
    env: serverEnv as NodeJS.ProcessEnv,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${PORT}`;
  const sql = postgres(databaseUrl, { max: POOL, onnotice: () => {} });
  try {
    for (let i = 0; needsServer && i < 120; i++) {
      const ok = await fetch(`${base}/api/health`).then((r) => r.ok).catch(() => false);
      if (ok) break;
      if (i === 119) throw new Error('server did not start');
      await sleep(500);
    }
    const tokens = await Promise.all(Array.from({ length: USERS }, (_, i) => token(`bench|${i}`)));
    // Provision every user once (first sight creates the account), so the run measures reads.
    for (let i = 0; needsServer && i < USERS; i += 20) {
      await Promise.all(tokens.slice(i, i + 20).map((t) => fetch(`${base}/api/users/me`, { headers: { authorization: `Bearer ${t}` } })));
    }

    const subjects = Array.from({ length: USERS }, (_, i) => `bench|${i}`);
    // BENCH_ONLY=tick,feed,… runs only the named figures (floor, users-me, buy, perps, pools, sweep, feed, tick, sse, chats, a2a, mcp, api-keys, hostile, leaderboard, workers, dbcost, history, orders; million only when named).
    const only = process.env.BENCH_ONLY?.split(',').map((x) => x.trim());
    const runs = (name: string) => !only || only.includes(name);

    // First: the empty handler, and beside it health, users/me and the markets list as ratios of it.
    if (runs('floor')) await benchFloor({ base, tokens, adminToken: await token('bench|admin'), figures, seconds: SECONDS, serverPid: server?.pid });
    if (runs('users-me')) await benchUsersMe({ base, sql, tokens, subjects });
    if (runs('buy')) await benchPredictionBuy({ base, sql, tokens, subjects });
    if (runs('perps')) await benchPerpRoundTrip({ base, sql, tokens, subjects });
    if (runs('pools')) await benchPoolRoundTrip({ base, sql, tokens, subjects, figures, databaseUrl, seconds: SECONDS, poolMax: POOL });
    if (runs('sweep')) await benchLiquidationSweep({ base, sql });
    if (runs('feed')) await benchFeedRead({ base, sql, tokens, subjects });
    if (runs('tick')) await benchTick({ base, sql, figures, databaseUrl, poolMax: POOL });
    if (runs('sse')) await benchSseFanout({ base, sql, tokens, figures, databaseUrl });
    if (runs('chats')) await benchChatSendDeliver({ base, sql, tokens, subjects, figures, seconds: SECONDS });
    if (runs('a2a')) await benchA2aMarketData({ base, tokens, figures, seconds: SECONDS, token });
    if (runs('mcp')) await benchMcpToolCall({ base, tokens, figures, seconds: SECONDS, token });
    if (runs('api-keys')) await benchApiKeyAuth({ base, tokens, figures, seconds: SECONDS });
    if (runs('hostile')) await benchHostileLoad({ base, tokens, figures, token });
    if (runs('dbcost')) await benchDbCost({ baseUrl: BASE_URL, figures, poolMax: POOL });
    if (runs('history')) await benchHistoryWrite({ baseUrl: BASE_URL, figures, poolMax: POOL });
    if (runs('orders')) await benchOrders({ baseUrl: BASE_URL, figures, poolMax: POOL });
    if (runs('workers')) await benchWorkers({ env: serverEnv, tokens, figures, seconds: SECONDS });
    // Only when named: minutes of building a million-player world (bench/million.ts).
    if (only?.includes('million')) await benchMillion({ baseUrl: BASE_URL, figures, poolMax: POOL });
    // Last: its 100,000 players would weigh on the figures above (the tick's daily snapshot).
    if (runs('leaderboard')) await benchLeaderboard({ base, sql, figures, databaseUrl, seconds: SECONDS, poolMax: POOL, token });
  } finally {
    server?.kill('SIGTERM');
    await sleep(500);
    await sql.end();
    // The project's own handle, when a figure called the services in this process (pools, tick).
    await closeLibDb();
    await admin.unsafe(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }

  const pad = (s: string, n: number) => s.padEnd(n);
  console.log(`\n${pad('figure', 26)}${pad('project', 14)}${pad('reference', 44)}ratio`);
  for (const f of figures) {
    const ratio = f.project / f.reference;
    const reference = `${f.reference.toFixed(1)} ${f.unit} (${f.referenceIs ?? 'direct SQL'})`;
    console.log(
      `${pad(f.name, 26)}${pad(`${f.project.toFixed(1)} ${f.unit}`, 14)}${pad(reference, 44)}${ratio.toFixed(3)} (${f.higherIsBetter ? 'higher' : 'lower'} is better)`,
    );
  }
};

await main();
