/**
 * npm run bench: builds and starts the production server on a throwaway PostgreSQL database,
 * drives it with autocannon, and prints each figure next to a reference measured in the same
 * run: the same SQL issued directly through postgres.js at the same concurrency. A benchmark,
 * not a test: it reports and never fails on a number.
 *
 * Environment: BENCH_DATABASE_URL (server to create the throwaway database on; default the local
 * PostgreSQL), BENCH_SECONDS (per figure, default 10), BENCH_SKIP_BUILD=1 to reuse .next.
 */
import { execSync, spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { SignJWT } from 'jose';
import { PgDialect } from 'drizzle-orm/pg-core';
import postgres from 'postgres';
import { buildBuyStatement } from '@/lib/markets/service/buy-shares';
import { dec } from '@/lib/money/decimal';

const BASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;
const PORT = Number(process.env.BENCH_PORT ?? 3400);
const SECRET = 'bench-secret';
// Rate limits are per user (1000/min): rotate enough users that the benchmark measures the
// endpoint, not the 429 path.
const USERS = 400;

type TFigure = { name: string; project: number; reference: number; unit: string; higherIsBetter: boolean };
const figures: TFigure[] = [];

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

const token = (sub: string) =>
  new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).setExpirationTime('2h').sign(new TextEncoder().encode(SECRET));

/** Runs `work` from CONNECTIONS concurrent loops for SECONDS; returns rps and latency percentiles (ms). */
const drive = async (work: (i: number) => Promise<unknown>) => {
  const latencies: number[] = [];
  const deadline = performance.now() + SECONDS * 1000;
  let n = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        await work(n++);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / SECONDS, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
};

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
  let n = 0;
  const result = await autocannon({
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
            headers: { ...req.headers, 'content-type': 'application/json', authorization: `Bearer ${tokens[i % USERS]}` },
            body: JSON.stringify({ outcome: i % 3 ? 'YES' : 'NO', amount: 1 + (i % 10) }),
          };
        },
      },
    ],
  });
  if (result.non2xx > 0) console.log(`  note: ${result.non2xx} non-2xx answers during the run`);
  const tradesPerSecond = (result.requests.total - result.non2xx) / SECONDS;

  // The reference: exactly the statements one buy issues (the caller by token subject, which
  // also gives the referrer, then the buy statement built by the service itself), sent directly
  // through postgres.js.
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
    await sql.unsafe(q.sql, q.params as never[]);
  });
  figures.push({ name: 'prediction buy trades/s', project: tradesPerSecond, reference: ref.rps, unit: 'tx/s', higherIsBetter: true });
  figures.push({ name: 'prediction buy p50', project: result.latency.p50, reference: ref.p50, unit: 'ms', higherIsBetter: false });
  figures.push({ name: 'prediction buy p99', project: result.latency.p99, reference: ref.p99, unit: 'ms', higherIsBetter: false });
};

const main = async () => {
  const dbName = `pm_bench_${Date.now()}`;
  const admin = postgres(BASE_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${dbName}`);
  const url = new URL(BASE_URL);
  url.pathname = `/${dbName}`;
  const databaseUrl = url.toString();

  if (process.env.BENCH_SKIP_BUILD !== '1') {
    console.log('Building the production server…');
    execSync('npm run build', { stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  }
  const server = spawn('node', ['server.mjs'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(PORT),
      DATABASE_URL: databaseUrl,
      AUTH_JWT_SECRET: SECRET,
      CRON_SECRET: 'bench-cron',
      LOCAL_SCHEDULER: '0',
      DB_POOL_MAX: String(CONNECTIONS),
      STARTING_BALANCE: '1000000',
      ADMIN_SUBJECTS: 'bench|admin',
      NEXT_TELEMETRY_DISABLED: '1',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${PORT}`;
  const sql = postgres(databaseUrl, { max: CONNECTIONS, onnotice: () => {} });
  try {
    for (let i = 0; i < 120; i++) {
      const ok = await fetch(`${base}/api/health`).then((r) => r.ok).catch(() => false);
      if (ok) break;
      if (i === 119) throw new Error('server did not start');
      await sleep(500);
    }
    const tokens = await Promise.all(Array.from({ length: USERS }, (_, i) => token(`bench|${i}`)));
    // Provision every user once (first sight creates the account), so the run measures reads.
    for (let i = 0; i < USERS; i += 20) {
      await Promise.all(tokens.slice(i, i + 20).map((t) => fetch(`${base}/api/users/me`, { headers: { authorization: `Bearer ${t}` } })));
    }

    // Figure 1: GET /api/users/me
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
    const subjects = Array.from({ length: USERS }, (_, i) => `bench|${i}`);
    const ref = await drive(async (i) => {
      const [user] = await sql`select * from users where auth_subject = ${subjects[i % USERS]!}`;
      await sql`select (select count(*)::int from users r where r.referred_by_id = ${user!.id}) as referral_count,
        (select count(*)::int from balance_transactions t where t.user_id = ${user!.id}
           and t.type in ('pred_buy','pred_sell','perp_open','perp_close')) as trades_count`;
    });
    figures.push({ name: 'users/me requests/s', project: result.requests.average, reference: ref.rps, unit: 'req/s', higherIsBetter: true });
    figures.push({ name: 'users/me p50 latency', project: result.latency.p50, reference: ref.p50, unit: 'ms', higherIsBetter: false });
    figures.push({ name: 'users/me p99 latency', project: result.latency.p99, reference: ref.p99, unit: 'ms', higherIsBetter: false });
    if (non2xx > 0) console.log(`  note: ${non2xx} non-2xx answers during the run`);

    await benchPredictionBuy({ base, sql, tokens, subjects });
  } finally {
    server.kill('SIGTERM');
    await sleep(500);
    await sql.end();
    await admin.unsafe(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }

  const pad = (s: string, n: number) => s.padEnd(n);
  console.log(`\n${pad('figure', 26)}${pad('project', 14)}${pad('reference (direct SQL)', 24)}ratio`);
  for (const f of figures) {
    const ratio = f.project / f.reference;
    console.log(
      `${pad(f.name, 26)}${pad(`${f.project.toFixed(1)} ${f.unit}`, 14)}${pad(`${f.reference.toFixed(1)} ${f.unit}`, 24)}${ratio.toFixed(3)} (${f.higherIsBetter ? 'higher' : 'lower'} is better)`,
    );
  }
};

await main();
