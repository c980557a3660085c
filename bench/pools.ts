/**
 * Figure "pool deposit+withdraw" (BENCH_ONLY=pools): round trips per second at 32 clients, one
 * round trip being POST /api/pools/{id}/deposit {amount} then POST /api/pools/{id}/withdraw
 * {depositId, shares} of the whole lot it bought, through the production server. The clients are
 * spread evenly over 16 pools: the 4 seeded ones and 12 more made with createPool (different
 * managers, tiers and sizes), so two clients share a pool's row lock as a real load spread over
 * the pools would; the 400 benchmark users take turns.
 *
 * Reference, same run, same concurrency and same database-connection count: the same work
 * without HTTP, in this process through the project's own code (db/client.ts with DB_POOL_MAX =
 * BENCH_POOL): per round trip the caller by token subject (findUserBySubject, as every
 * authenticated request does), depositToPool, the caller again, withdrawFromPool: the very
 * services the two routes call, hence exactly their statements. Goal: ratio 0.5 or better.
 */
import type postgres from 'postgres';
import { driveLoops, type TFigure } from './figures';

const CONNECTIONS = 32;
const EXTRA_POOLS = 12;
const TIERS = ['S', 'A', 'B', 'C'] as const;


/**
 * Points the project's database handle (db/client.ts) of THIS process at the benchmark database,
 * with the server's pool size, so a reference or a fixture can call the services directly. Call
 * before the first service call; closeLibDb() at the end.
 */
export const openLibDb = async (databaseUrl: string, poolMax: number) => {
  process.env.DATABASE_URL = databaseUrl;
  process.env.DB_POOL_MAX = String(poolMax);
  const { resetEnvCache } = await import('@/lib/env');
  resetEnvCache();
  const { getDb } = await import('@/db/client');
  return getDb();
};

export const closeLibDb = async () => {
  const { closeDb } = await import('@/db/client');
  await closeDb();
};

/** `n` pools made with createPool, managed by `managers` in turn; returns their ids. */
export const createBenchPools = async (opts: { prefix: string; n: number; managers: readonly string[]; seedCapital: (i: number) => string }) => {
  const { withTransaction } = await import('@/db/client');
  const { createPool } = await import('@/lib/pools/service/create-pool');
  const ids: string[] = [];
  for (let i = 0; i < opts.n; i++) {
    const id = `${opts.prefix}-${i + 1}`;
    await withTransaction((tx) =>
      createPool(tx, {
        id,
        managerId: opts.managers[i % opts.managers.length]!,
        name: `Bench pool ${opts.prefix} ${i + 1}`,
        description: 'A benchmark pool.',
        tier: TIERS[i % TIERS.length]!,
        performanceFeeRate: ['0.2000', '0.1500', '0.1000', '0.0500'][i % 4]!,
        seedCapital: opts.seedCapital(i),
      }),
    );
    ids.push(id);
  }
  return ids;
};

export const benchPoolRoundTrip = async (ctx: {
  base: string;
  sql: postgres.Sql;
  tokens: string[];
  subjects: string[];
  figures: TFigure[];
  databaseUrl: string;
  seconds: number;
  poolMax: number;
}) => {
  const { base, sql, tokens, subjects, figures, seconds } = ctx;
  const users = tokens.length;
  const db = await openLibDb(ctx.databaseUrl, ctx.poolMax);
  const { findUserBySubject } = await import('@/lib/users/queries');
  const { callerOfUser } = await import('@/lib/auth/caller');
  const { depositToPool } = await import('@/lib/pools/service/deposit');
  const { withdrawFromPool } = await import('@/lib/pools/service/withdraw');

  const seeded = (await sql`select id from pools where id like 'seed-pool-%' order by id`).map((r) => r.id as string);
  const managers = (await sql`select id from users where is_actor and id like 'actor-%' order by id`).map((r) => r.id as string);
  const created = await createBenchPools({ prefix: 'bench-pool', n: EXTRA_POOLS, managers, seedCapital: (i) => String(2_000 * (1 + (i % 10))) });
  const poolIds = [...seeded, ...created];
  await sql`analyze`;

  const drive = (work: (i: number) => Promise<void>) => driveLoops(work, { seconds, connections: CONNECTIONS });
  const amountOf = (i: number) => 10 + (i % 90);

  console.log(`\nPOST /api/pools/{id}/deposit + withdraw: ${CONNECTIONS} clients over ${poolIds.length} pools, ${seconds}s…`);
  const failures = new Map<string, number>();
  const fail = (what: string) => failures.set(what, (failures.get(what) ?? 0) + 1);
  const post = async (path: string, token: string, body: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as { deposit?: { id: string; shares: number }; error?: { code?: string } };
    if (!res.ok) fail(`${path.split('/').pop()} ${res.status} ${json.error?.code ?? ''}`);
    return json;
  };
  const project = await drive(async (i) => {
    const token = tokens[i % users]!;
    const poolId = poolIds[i % poolIds.length]!;
    const d = await post(`/api/pools/${poolId}/deposit`, token, { amount: amountOf(i) });
    if (d.deposit) await post(`/api/pools/${poolId}/withdraw`, token, { depositId: d.deposit.id, shares: d.deposit.shares });
  });
  if (failures.size > 0) console.log(`  note: non-2xx answers during the run: ${JSON.stringify(Object.fromEntries(failures))}`);

  console.log(`  reference: the same services called directly, ${seconds}s…`);
  let refFailures = 0;
  const ref = await drive(async (i) => {
    const subject = subjects[i % users]!;
    const poolId = poolIds[i % poolIds.length]!;
    try {
      const u = await findUserBySubject(db, subject);
      const d = await depositToPool({ caller: callerOfUser(u!), poolId, amount: amountOf(i) });
      const again = await findUserBySubject(db, subject);
      await withdrawFromPool({ caller: callerOfUser(again!), poolId, depositId: d.deposit.id, shares: d.deposit.shares });
    } catch (e) {
      if (refFailures++ === 0) console.log(`  note: the reference failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  });
  if (refFailures > 0) console.log(`  note: ${refFailures} reference round trips failed`);

  // Every lot the benchmark bought was withdrawn whole: nothing but the seeds may remain.
  const [left] = await sql`select count(*)::int as n from pool_deposits where not is_seed and remaining_shares > 0`;
  if (left!.n > 0) console.log(`  note: ${left!.n} lots were left with shares`);
  console.log(
    `  project ${project.rps.toFixed(1)} rt/s (p50 ${project.p50.toFixed(1)} ms, p99 ${project.p99.toFixed(1)} ms); ` +
      `reference ${ref.rps.toFixed(1)} rt/s (p50 ${ref.p50.toFixed(1)} ms, p99 ${ref.p99.toFixed(1)} ms); ratio ${(project.rps / ref.rps).toFixed(3)} (goal 0.5)`,
  );
  const referenceIs = 'services called directly';
  figures.push({ name: 'pool deposit+withdraw/s', project: project.rps, reference: ref.rps, unit: 'rt/s', higherIsBetter: true, referenceIs });
  figures.push({ name: 'pool dep+wd p50', project: project.p50, reference: ref.p50, unit: 'ms', higherIsBetter: false, referenceIs });
  figures.push({ name: 'pool dep+wd p99', project: project.p99, reference: ref.p99, unit: 'ms', higherIsBetter: false, referenceIs });
};
