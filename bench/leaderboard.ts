/**
 * Figure "leaderboard page at 100,000 users" (BENCH_ONLY=leaderboard).
 *
 * Fixture: 100,000 players (rows inserted with set-based SQL, auth subjects `bench-lb|<n>`), their
 * points paid through the points ledger (lib/points/ledger.ts applyPointsChange, the only writer of
 * users.reputation_points), skewed and full of ties: a fifth with none, most 1 to 100, 3% in the
 * hundreds to thousands, and 10% with a 'milestone:first_referral' award of 50 to 1,050 so the
 * referral board has a head; 14 daily equity closes each (set-based SQL), so every entry carries
 * its PnL sparkline. Then refreshAllStandings() until no mark is left (the initial full build,
 * printed) and a VACUUM ANALYZE, as autovacuum would leave the tables.
 *
 * The figure: pages per second at 32 clients for BENCH_SECONDS, each request GET
 * /api/leaderboard?page&pageSize=100&pointsType with a random page of 1..1000, the board cycling
 * all/earned/referral and every other request carrying the bearer token of a random fixture player
 * (so `me` is computed). Anonymous reads count against the public limit of their client address
 * (100 a minute), so each client spreads its anonymous reads over 16 loopback addresses of its own
 * (127.1.<client>.<k>), as many visitors would; a non-200 answer is counted and printed.
 * Reference, same run, same concurrency, same database-connection count (BENCH_POOL): the same
 * parameter distribution through readLeaderboard() called in this process (db/client.ts pointed at
 * the bench database): the very statements the route issues, without HTTP, auth or serialisation.
 * Goal: ratio 0.5 or better.
 *
 * Then the read model's refresh within the tick: 1,000 random players gain a point (through the
 * ledger, which marks them), and the board's refresh (refreshAllStandings without the reputation
 * pass) is timed, three times; goal under 200 ms. The tick's reputation pass that follows (those
 * 1,000 first, then the stalest) is timed beside it, for the record. For the record, the tick's league step at
 * the first tick of a game day (the equity close of all 100,000 accounts, the season, every
 * player's seat) and at a later tick of that day.
 */
import http from 'node:http';
import type postgres from 'postgres';
import { driveLoops, percentile, type TFigure } from './figures';
import { openLibDb } from './pools';

const CONNECTIONS = 32;
const PLAYERS = 100_000;
const PAGE_SIZE = 100;
const PAGES = 1_000;
const BOARDS = ['all', 'earned', 'referral'] as const;
/** Fixture players with a token: callers of the authenticated half (each far below 1,000 a minute). */
const CALLERS = 2_000;
/** Client addresses per client for the anonymous half (the public limit is per address). */
const ADDRESSES_PER_CLIENT = 16;
const SNAPSHOT_DAYS = 14;
const REFRESH_MARKS = 1_000;
const REFRESH_GOAL_MS = 200;
const REFRESH_ROUNDS = 3;
/** Ledger changes per transaction (pipelined on its connection) while building the fixture. */
const POINTS_BATCH = 1_000;

/** A small seeded generator, so every run builds the same fixture. */
const mulberry32 = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const idOf = (n: number) => `lb-${n}`;
const subjectOf = (n: number) => `bench-lb|${n}`;

type TChange = { userId: string; amount: number; reason: string };

/** Each player's ledger changes, grouped so one player's changes share a batch (no lock waits across batches). */
const pointsPlan = () => {
  const rand = mulberry32(20_260_501);
  const batches: TChange[][] = [[]];
  for (let n = 1; n <= PLAYERS; n++) {
    const userId = idOf(n);
    const mine: TChange[] = [];
    const r = rand();
    // Earned: a fifth none, most 1..100 (skewed low: many ties), 3% 100..5,100 (skewed: a few thousands).
    const earned = r < 0.2 ? 0 : r < 0.97 ? 1 + Math.floor(100 * rand() ** 2) : 100 + Math.floor(5_000 * rand() ** 3);
    if (earned > 0) mine.push({ userId, amount: earned, reason: 'bench:activity' });
    if (rand() < 0.1) mine.push({ userId, amount: 50 * (1 + Math.floor(20 * rand() ** 3)), reason: 'milestone:first_referral' });
    if (batches[batches.length - 1]!.length + mine.length > POINTS_BATCH) batches.push([]);
    batches[batches.length - 1]!.push(...mine);
  }
  return batches;
};

/** Runs `work` over `items` from `concurrency` loops. */
const inParallel = async <T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<unknown>) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < items.length; i = next++) await work(items[i]!);
    }),
  );
};

const seconds = (t0: number) => ((performance.now() - t0) / 1000).toFixed(1);

/** The fixture, on a database whose handle (db/client.ts) openLibDb pointed at it. */
export const buildLeaderboardFixture = async (sql: postgres.Sql, poolMax: number) => {
  const { withTransaction } = await import('@/db/client');
  const { applyPointsChange } = await import('@/lib/points/ledger');
  const { refreshAllStandings } = await import('@/lib/standings/refresh');
  const tAll = performance.now();

  let t0 = performance.now();
  // The insert trigger of migration 0010 marks each new account for the read model.
  await sql`
    insert into users (id, auth_subject, username, display_name, referral_code, created_at, updated_at)
    select 'lb-' || g, 'bench-lb|' || g, 'lb_player_' || g, 'Leaderboard player ' || g, 'LBREF' || g,
      now() - (g || ' seconds')::interval, now()
    from generate_series(1, ${PLAYERS}) g`;
  console.log(`  ${PLAYERS} players inserted in ${seconds(t0)} s`);

  t0 = performance.now();
  const batches = pointsPlan();
  const changes = batches.reduce((s, b) => s + b.length, 0);
  // Each batch is one transaction whose changes are pipelined on its connection; poolMax batches at once.
  await inParallel(batches, poolMax, (batch) => withTransaction((tx) => Promise.all(batch.map((c) => applyPointsChange(tx, c)))));
  console.log(`  ${changes} points changes through the ledger in ${seconds(t0)} s`);

  t0 = performance.now();
  // 14 daily closes per player (the days before the closed day), a drifting PnL: the sparklines.
  await sql`
    insert into equity_snapshots (user_id, day, equity, flows, lifetime_pnl, created_at)
    select 'lb-' || g, current_date - 1 - d, 1000 + (g % 97) * d, 0, ((g % 41) - 20) * d, (current_date - d)::timestamptz
    from generate_series(1, ${PLAYERS}) g, generate_series(1, ${SNAPSHOT_DAYS}) d`;
  console.log(`  ${PLAYERS * SNAPSHOT_DAYS} equity snapshots inserted in ${seconds(t0)} s`);

  t0 = performance.now();
  let refreshed = 0;
  let reputations = 0;
  for (;;) {
    const r = await refreshAllStandings();
    refreshed += r.refreshed;
    reputations += r.reputations;
    const [{ n }] = (await sql`select count(*)::int as n from standings_dirty`) as unknown as [{ n: number }];
    if (n === 0) break;
  }
  console.log(`  initial full build of the read model: ${refreshed} accounts, ${reputations} reputations in ${seconds(t0)} s`);

  t0 = performance.now();
  await sql`vacuum analyze users`;
  await sql`vacuum analyze standings`;
  await sql`vacuum analyze points_transactions`;
  await sql`vacuum analyze equity_snapshots`;
  console.log(`  vacuum analyze in ${seconds(t0)} s; fixture built in ${seconds(tAll)} s`);
};

/** GET over a keep-alive connection from a chosen local address; the status and the body's bytes. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const get = (base: URL, path: string, localAddress: string, headers: Record<string, string>) =>
  new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
    const req = http.request({ host: base.hostname, port: base.port, path, headers, agent, localAddress }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });

/** driveLoops, telling each call which client (loop) makes it: a client keeps its own addresses. */
const driveClients = async (work: (i: number, client: number) => Promise<unknown>, opts: { seconds: number; connections: number }) => {
  const latencies: number[] = [];
  const deadline = performance.now() + opts.seconds * 1000;
  let n = 0;
  await Promise.all(
    Array.from({ length: opts.connections }, async (_, client) => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        await work(n++, client);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / opts.seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), trips: latencies.length };
};

type TParams = { page: number; pointsType: (typeof BOARDS)[number]; caller: number | null };
/** Request i's parameters: the board cycles, every other request has a caller, page and caller are random. */
const paramsOf = (i: number, callers: readonly number[]): TParams => ({
  page: 1 + Math.floor(Math.random() * PAGES),
  pointsType: BOARDS[i % BOARDS.length]!,
  caller: i % 2 === 0 ? callers[Math.floor(Math.random() * callers.length)]! : null,
});
const pathOf = (p: TParams) => `/api/leaderboard?page=${p.page}&pageSize=${PAGE_SIZE}&pointsType=${p.pointsType}`;

type TBody = { leaderboard?: unknown[]; me?: { user?: { id?: string } } | null; pagination?: { total?: number } };

export const benchLeaderboard = async (ctx: {
  base: string;
  sql: postgres.Sql;
  figures: TFigure[];
  databaseUrl: string;
  seconds: number;
  poolMax: number;
  token: (sub: string) => Promise<string>;
}) => {
  const { sql, figures } = ctx;
  const base = new URL(ctx.base);
  console.log(`\nLeaderboard at ${PLAYERS.toLocaleString('en')} players: building the fixture…`);
  await openLibDb(ctx.databaseUrl, ctx.poolMax);
  await buildLeaderboardFixture(sql, ctx.poolMax);
  const { readLeaderboard } = await import('@/lib/standings/service/read-leaderboard');

  const rand = mulberry32(7);
  const callers = Array.from({ length: CALLERS }, () => 1 + Math.floor(rand() * PLAYERS));
  const tokens = new Map<number, string>();
  for (const n of callers) if (!tokens.has(n)) tokens.set(n, await ctx.token(subjectOf(n)));
  const anonAddress = (client: number, i: number) => `127.1.${client}.${2 + (i % ADDRESSES_PER_CLIENT)}`;
  const authAddress = (client: number) => `127.1.${client}.1`;

  // A sample per board, with and without a caller: 200, a full page, the caller's entry, the total.
  for (const [k, pointsType] of BOARDS.entries()) {
    for (const caller of [callers[k]!, null]) {
      const p: TParams = { page: 1 + Math.floor(Math.random() * PAGES), pointsType, caller };
      const headers: Record<string, string> = caller === null ? {} : { authorization: `Bearer ${tokens.get(caller)!}` };
      const res = await get(base, pathOf(p), caller === null ? anonAddress(31, 15) : authAddress(31), headers);
      const body = JSON.parse(res.body.toString('utf8')) as TBody;
      const entries = body.leaderboard?.length ?? 0;
      const meOk = caller === null ? body.me === null : body.me?.user?.id === idOf(caller);
      if (res.status !== 200 || entries !== PAGE_SIZE || !meOk || (body.pagination?.total ?? 0) < PLAYERS) {
        console.log(`  note: sample ${pathOf(p)} (caller ${caller ?? 'none'}) answered ${res.status}, ${entries} entries, me ${meOk ? 'ok' : 'wrong'}, total ${body.pagination?.total}`);
      }
    }
  }

  console.log(`GET /api/leaderboard: ${CONNECTIONS} clients, random page of 1..${PAGES}, pageSize ${PAGE_SIZE}, boards in turn, half with a token, ${ctx.seconds}s…`);
  const failures = new Map<string, number>();
  const fail = (what: string) => failures.set(what, (failures.get(what) ?? 0) + 1);
  let bytes = 0;
  const project = await driveClients(
    async (i, client) => {
      const p = paramsOf(i, callers);
      const headers: Record<string, string> = p.caller === null ? {} : { authorization: `Bearer ${tokens.get(p.caller)!}` };
      try {
        const res = await get(base, pathOf(p), p.caller === null ? anonAddress(client, i) : authAddress(client), headers);
        bytes += res.body.length;
        if (res.status !== 200) fail(String(res.status));
      } catch (e) {
        fail((e as NodeJS.ErrnoException).code ?? 'error');
      }
    },
    { seconds: ctx.seconds, connections: CONNECTIONS },
  );
  agent.destroy();
  const errors = [...failures.values()].reduce((s, n) => s + n, 0);
  if (errors > 0) console.log(`  note: ${errors} failed answers during the run: ${JSON.stringify(Object.fromEntries(failures))}`);
  const apiPages = (project.trips - errors) / ctx.seconds;
  console.log(`  ${project.trips} answers, ${(bytes / Math.max(1, project.trips - errors) / 1024).toFixed(1)} KiB a page on average`);

  console.log(`  reference: readLeaderboard() called directly, same distribution, ${ctx.seconds}s…`);
  let refFailures = 0;
  const ref = await driveLoops(
    async (i) => {
      const p = paramsOf(i, callers);
      try {
        const out = await readLeaderboard({ page: p.page, pageSize: PAGE_SIZE, pointsType: p.pointsType, callerId: p.caller === null ? undefined : idOf(p.caller) });
        if (out.leaderboard.length !== PAGE_SIZE) refFailures++;
      } catch (e) {
        if (refFailures++ === 0) console.log(`  note: the reference failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    },
    { seconds: ctx.seconds, connections: CONNECTIONS },
  );
  if (refFailures > 0) console.log(`  note: ${refFailures} reference reads failed or were short`);
  console.log(
    `  api ${apiPages.toFixed(1)} pages/s (p50 ${project.p50.toFixed(1)} ms, p99 ${project.p99.toFixed(1)} ms); ` +
      `reference ${ref.rps.toFixed(1)} pages/s (p50 ${ref.p50.toFixed(1)} ms, p99 ${ref.p99.toFixed(1)} ms); ratio ${(apiPages / ref.rps).toFixed(3)} (goal 0.5)`,
  );
  const referenceIs = 'readLeaderboard in-process';
  figures.push({ name: 'leaderboard pages/s', project: apiPages, reference: ref.rps, unit: 'page/s', higherIsBetter: true, referenceIs });
  figures.push({ name: 'leaderboard p50', project: project.p50, reference: ref.p50, unit: 'ms', higherIsBetter: false, referenceIs });
  figures.push({ name: 'leaderboard p99', project: project.p99, reference: ref.p99, unit: 'ms', higherIsBetter: false, referenceIs });

  // The refresh within the tick: 1,000 players changed since the last one.
  const { withTransaction } = await import('@/db/client');
  const { applyPointsChange } = await import('@/lib/points/ledger');
  const { refreshAllStandings } = await import('@/lib/standings/refresh');
  await refreshAllStandings();
  console.log(`Read-model refresh: ${REFRESH_MARKS} players changed, the board's refresh then the reputation pass, ${REFRESH_ROUNDS} times…`);
  const runs: number[] = [];
  for (let round = 0; round < REFRESH_ROUNDS; round++) {
    const picked = new Set<number>();
    while (picked.size < REFRESH_MARKS) picked.add(1 + Math.floor(Math.random() * PLAYERS));
    const ids = [...picked].sort((a, b) => a - b).map(idOf);
    const chunks = Array.from({ length: Math.ceil(ids.length / 125) }, (_, k) => ids.slice(k * 125, k * 125 + 125));
    await inParallel(chunks, ctx.poolMax, (chunk) =>
      withTransaction((tx) => Promise.all(chunk.map((userId) => applyPointsChange(tx, { userId, amount: 1, reason: 'bench:activity' })))),
    );
    const [{ n: marked }] = (await sql`select count(*)::int as n from standings_dirty`) as unknown as [{ n: number }];
    const t0 = performance.now();
    const r = await refreshAllStandings(Infinity, 0);
    const ms = performance.now() - t0;
    runs.push(ms);
    const t1 = performance.now();
    const rep = await refreshAllStandings(Infinity, REFRESH_MARKS + 500);
    const repMs = performance.now() - t1;
    console.log(
      `  round ${round + 1}: board ${ms.toFixed(0)} ms (${marked} marked, ${r.refreshed} refreshed) — goal ${REFRESH_GOAL_MS} ms; ` +
        `reputation pass ${repMs.toFixed(0)} ms (${rep.reputations} recomputed)`,
    );
  }
  const median = percentile([...runs].sort((a, b) => a - b), 50);
  console.log(`  median ${median.toFixed(0)} ms (goal under ${REFRESH_GOAL_MS} ms)`);
  figures.push({ name: 'leaderboard refresh (1k)', project: median, reference: REFRESH_GOAL_MS, unit: 'ms', higherIsBetter: false, referenceIs: 'the 200 ms goal' });

  // For the record: the tick's league step at the first tick of a game day (the equity close of
  // every ranked account; on the first day also the season and every player's seat), then at a
  // later tick of that day (a probe, and new players only).
  const { runLeagueStep } = await import('@/lib/leagues/service/seasons');
  const at = new Date();
  let t0 = performance.now();
  const first = await runLeagueStep(at);
  const firstMs = performance.now() - t0;
  t0 = performance.now();
  // 20 minutes on: the fixture's 100,000 accounts were all first ranked minutes ago and would
  // still count as newcomers (a world's newcomers are the accounts of the last 15 minutes).
  const later = await runLeagueStep(new Date(at.getTime() + 20 * 60_000));
  const laterMs = performance.now() - t0;
  console.log(
    `  league step, first tick of the day: ${firstMs.toFixed(0)} ms (${first.snapshots} closes, ${first.seated} seated in ${first.season}; informational); ` +
      `a later tick of the day: ${laterMs.toFixed(0)} ms (${later.snapshots} closes)`,
  );
};
