/**
 * The soak (`npm run soak`): many random concurrent operations from many users across every money
 * path, over HTTP against a production server, with the game tick running on the test clock, then
 * the ledger, points and pool invariants checked on the database itself (test/invariants.ts). Why:
 * unit tests prove each path alone; only a long concurrent mix with the tick in between shows
 * that they compose (no overdraft, no double sell or close, no balance off its ledger, no 5xx).
 *
 * Paths: prediction buy and sell, perp open and close (sometimes two closes of one position at
 * once), pool deposit and withdraw, NPC invest (deposit, withdraw), points transfer, A2A payments
 * (a2a.paymentRequest then a2a.paymentReceipt). Every money POST carries an `Idempotency-Key`.
 * Rate-limit refusals (429) are allowed and counted; any 5xx (or JSON-RPC internal error), a
 * network failure, an IDEMPOTENCY_KEY_* answer to a fresh key, a position closed twice or a
 * broken invariant fails the run (exit 1).
 *
 * Without SOAK_BASE_URL it creates a throwaway database on SOAK_PG_URL / OPS_PG_URL (default the
 * local PostgreSQL), starts `node server.mjs` from the built tree (OPS_APP_DIR or the working
 * directory; run `npm run build` first) on SOAK_PORT, and drops the database at the end. With
 * SOAK_BASE_URL it drives that server and checks the invariants on SOAK_DATABASE_URL (required),
 * minting tokens with SOAK_JWT_SECRET and ticking with SOAK_CRON_SECRET.
 *
 * Options (flags win over env): --ops SOAK_OPS (10000), --users SOAK_USERS (200),
 * --concurrency SOAK_CONCURRENCY (24), --seed SOAK_SEED (1), --tick-every SOAK_TICK_EVERY
 * (ops / 40), --tick-minutes SOAK_TICK_MINUTES (120: game minutes each tick moves the clock on),
 * --idempotency-keys SOAK_IDEMPOTENCY_KEYS (1; 0 sends none).
 */
import { createRng } from '@/lib/game/rng';
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { createDatabase, dropDatabase, OPS_CRON_SECRET, opsToken, requestJson, startServer, type TServer } from '../test/ops/servers';

export type TSoakOptions = {
  ops: number;
  users: number;
  concurrency: number;
  seed: number;
  tickEvery: number;
  tickMinutes: number;
  /** Send an Idempotency-Key with every money request (default true). */
  idempotencyKeys?: boolean;
  port?: number;
  baseUrl?: string;
  databaseUrl?: string;
  log?: (line: string) => void;
};

export type TInvariantResult = { name: string; ok: boolean; error?: string };

export type TSoakReport = {
  ok: boolean;
  ops: number;
  users: number;
  concurrency: number;
  seed: number;
  durationMs: number;
  opsPerSec: number;
  requests: number;
  /** kind → outcome ("200", "400 INSUFFICIENT_BALANCE", "429", …) → count. */
  byKind: Record<string, Record<string, number>>;
  statuses: Record<string, number>;
  rateLimited: number;
  failures: string[];
  /** The server's error lines (last 60) when the run failed and this run started the server. */
  serverErrors: string[];
  ticks: { ran: number; skipped: number; failed: number; tickMs: number[]; fundingPeriods: number; resolved: number; liquidations: number; stepErrors: string[]; gameTime?: string };
  invariants: TInvariantResult[];
};

const KINDS = ['predBuy', 'predSell', 'perpOpen', 'perpClose', 'poolDeposit', 'poolWithdraw', 'npcInvest', 'pointsTransfer', 'a2aPayment'] as const;
type TKind = (typeof KINDS)[number];
const WEIGHTS: Record<TKind, number> = { predBuy: 18, predSell: 12, perpOpen: 12, perpClose: 10, poolDeposit: 9, poolWithdraw: 7, npcInvest: 8, pointsTransfer: 12, a2aPayment: 12 };

type TUser = {
  id: string;
  token: string;
  predictions: { marketId: string; positionId: string; shares: number }[];
  perps: string[];
  deposits: { poolId: string; depositId: string; shares: number }[];
};
type TPool = { id: string; npcActorId: string };

export const runSoak = async (o: TSoakOptions): Promise<TSoakReport> => {
  const log = o.log ?? ((line: string) => console.log(line));
  // The game's seeded generator: the same seed picks the same sequence of operations.
  const rng = createRng(`soak:${o.seed}`).next;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
  const between = (lo: number, hi: number, places = 2) => Number((lo + rng() * (hi - lo)).toFixed(places));
  const runId = `${o.seed}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const adminSubject = `soak-admin-${runId}`;

  const report: TSoakReport = {
    ok: false,
    ops: o.ops,
    users: o.users,
    concurrency: o.concurrency,
    seed: o.seed,
    durationMs: 0,
    opsPerSec: 0,
    requests: 0,
    byKind: {},
    statuses: {},
    rateLimited: 0,
    failures: [],
    serverErrors: [],
    ticks: { ran: 0, skipped: 0, failed: 0, tickMs: [], fundingPeriods: 0, resolved: 0, liquidations: 0, stepErrors: [] },
    invariants: [],
  };

  let db: { name: string; url: string } | undefined;
  let server: TServer | undefined;
  let base = o.baseUrl;
  let databaseUrl = o.databaseUrl;
  const cronSecret = o.baseUrl ? (process.env.SOAK_CRON_SECRET ?? OPS_CRON_SECRET) : OPS_CRON_SECRET;
  try {
    if (!base) {
      db = await createDatabase('soak');
      databaseUrl = db.url;
      const t0 = Date.now();
      server = await startServer({
        port: o.port ?? 3423,
        label: 'soak',
        env: { DATABASE_URL: db.url, ADMIN_SUBJECTS: adminSubject, STARTING_BALANCE: '5000', DB_POOL_MAX: '20' },
      });
      base = server.base;
      log(`server ${base} on ${db.name} healthy in ${Date.now() - t0} ms`);
    }
    if (!databaseUrl) throw new Error('SOAK_DATABASE_URL is required with SOAK_BASE_URL (the invariants read the database)');

    /** One HTTP call, counted under `kind`; never throws (a network failure is a failure). */
    const count = (kind: string, outcome: string) => {
      const k = (report.byKind[kind] ??= {});
      k[outcome] = (k[outcome] ?? 0) + 1;
    };
    const send = async (kind: string, path: string, init: { token: string; body?: unknown; money?: boolean; method?: string }) => {
      report.requests++;
      try {
        const res = await requestJson(`${base}${path}`, {
          method: init.method ?? 'POST',
          token: init.token,
          body: init.body,
          headers: init.money && o.idempotencyKeys !== false ? { 'idempotency-key': randomUUID() } : undefined,
        });
        report.statuses[res.status] = (report.statuses[res.status] ?? 0) + 1;
        const code = res.body && typeof res.body === 'object' ? (res.body.error?.code ?? res.body.error?.data?.code) : undefined;
        const rpcInternal = res.status === 200 && res.body?.error?.code === -32603;
        count(kind, code && res.status !== 200 ? `${res.status} ${code}` : rpcInternal ? '200 rpc-internal' : String(res.status));
        if (res.status === 429) report.rateLimited++;
        if (res.status >= 500 || rpcInternal) report.failures.push(`${kind} ${path}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
        // Every key sent here is new: an answer about the key itself is wrong.
        if (typeof code === 'string' && code.startsWith('IDEMPOTENCY_KEY')) report.failures.push(`${kind} ${path}: a fresh Idempotency-Key answered ${res.status} ${code}`);
        return res;
      } catch (e) {
        count(kind, 'network-error');
        report.failures.push(`${kind} ${path}: ${e instanceof Error ? e.message : String(e)}`);
        return { status: 0, body: undefined as any, headers: new Headers() };
      }
    };

    // Users: the first request creates each (STARTING_BALANCE as a deposit); the admin gives each points to move.
    const t1 = Date.now();
    const admin = await opsToken(adminSubject);
    const usersList: TUser[] = [];
    const makeUser = async (i: number) => {
      const token = await opsToken(`soak-${runId}-${i}`);
      const me = await requestJson(`${base}/api/users/me`, { token });
      if (me.status !== 200) throw new Error(`GET /api/users/me: ${me.status} ${JSON.stringify(me.body).slice(0, 200)}`);
      const id = me.body.user?.id ?? me.body.id;
      usersList[i] = { id, token, predictions: [], perps: [], deposits: [] };
    };
    for (let i = 0; i < o.users; i += 16) await Promise.all(Array.from({ length: Math.min(16, o.users - i) }, (_, j) => makeUser(i + j)));
    let pointsAwarded = true;
    for (let i = 0; i < o.users && pointsAwarded; i += 16) {
      const res = await Promise.all(
        usersList.slice(i, i + 16).map((u) => requestJson(`${base}/api/users/points/award`, { token: admin, body: { userId: u.id, amount: 200, reason: 'soak' } })),
      );
      if (res.some((r) => r.status === 403)) pointsAwarded = false;
      else if (res.some((r) => r.status !== 200)) throw new Error(`points award: ${JSON.stringify(res.find((r) => r.status !== 200)!.body).slice(0, 200)}`);
    }
    log(`${o.users} users ready in ${Date.now() - t1} ms${pointsAwarded ? ' (200 points each)' : ' (no admin: points transfers will be refused)'}`);

    // The world: active questions, tickers, pools (refreshed after every tick: questions resolve and appear).
    let markets: string[] = [];
    let tickers: string[] = [];
    let pools: TPool[] = [];
    const loadWorld = async () => {
      const [m, p, pl] = await Promise.all([
        requestJson(`${base}/api/markets/predictions?status=active&limit=100`, { token: admin }),
        requestJson(`${base}/api/markets/perps`, { token: admin }),
        requestJson(`${base}/api/pools`, { token: admin }),
      ]);
      if (m.status === 200) markets = (m.body.questions ?? m.body.markets).map((q: { id: string }) => q.id);
      if (p.status === 200) tickers = (p.body.tickers ?? p.body.markets).map((t: { ticker: string }) => t.ticker);
      if (pl.status === 200) pools = pl.body.pools.filter((x: { isActive: boolean }) => x.isActive).map((x: TPool) => ({ id: x.id, npcActorId: x.npcActorId }));
    };
    await loadWorld();
    if (!markets.length || !tickers.length || !pools.length) throw new Error(`empty world: ${markets.length} questions, ${tickers.length} tickers, ${pools.length} pools`);
    log(`world: ${markets.length} questions, ${tickers.length} tickers, ${pools.length} pools`);

    // The tick, on the test clock: a first one as of now gives the game time; each later one moves it on.
    let gameTime: number | undefined;
    const tick = async () => {
      const body = gameTime === undefined ? {} : { now: new Date(gameTime + o.tickMinutes * 60_000).toISOString() };
      report.requests++;
      try {
        const res = await requestJson(`${base}/api/cron/game-tick`, { token: cronSecret, body, timeoutMs: 120_000 });
        count('tick', String(res.status));
        if (res.status !== 200) {
          report.ticks.failed++;
          report.failures.push(`tick: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
          return;
        }
        const r = res.body.result ?? res.body;
        if (r.skipped) {
          report.ticks.skipped++;
          return;
        }
        report.ticks.ran++;
        report.ticks.tickMs.push(r.durationMs ?? 0);
        gameTime = Date.parse(r.gameTime);
        report.ticks.gameTime = r.gameTime;
        report.ticks.fundingPeriods += r.funding?.periods ?? 0;
        report.ticks.resolved += r.questions?.resolved ?? 0;
        report.ticks.liquidations += r.liquidations ?? 0;
        for (const [step, message] of Object.entries(r.errors ?? {})) report.ticks.stepErrors.push(`${r.gameTime} ${step}: ${String(message).slice(0, 200)}`);
        await loadWorld();
      } catch (e) {
        report.ticks.failed++;
        report.failures.push(`tick: ${e instanceof Error ? e.message : String(e)}`);
      }
    };
    await tick();

    const other = (u: TUser) => {
      for (;;) {
        const v = pick(usersList);
        if (v !== u) return v;
      }
    };
    const take = <T>(xs: T[]): T | undefined => (xs.length ? xs.splice(Math.floor(rng() * xs.length), 1)[0] : undefined);
    const totalWeight = KINDS.reduce((s, k) => s + WEIGHTS[k], 0);
    const pickKind = (): TKind => {
      let r = rng() * totalWeight;
      for (const k of KINDS) if ((r -= WEIGHTS[k]) < 0) return k;
      return 'predBuy';
    };

    const runOp = async (kind: TKind, u: TUser): Promise<void> => {
      switch (kind) {
        case 'predBuy': {
          const id = pick(markets);
          const res = await send(kind, `/api/markets/predictions/${id}/buy`, { token: u.token, money: true, body: { outcome: rng() < 0.5 ? 'YES' : 'NO', amount: between(1, 40) } });
          if (res.status === 200) u.predictions.push({ marketId: id, positionId: res.body.position.id, shares: res.body.position.shares });
          return;
        }
        case 'predSell': {
          const p = take(u.predictions);
          if (!p) return runOp('predBuy', u);
          const all = rng() < 0.5;
          const shares = all ? p.shares : Number((p.shares / 2).toFixed(4));
          const res = await send(kind, `/api/markets/predictions/${p.marketId}/sell`, { token: u.token, money: true, body: { positionId: p.positionId, shares } });
          if (res.status === 200 && res.body.remainingShares > 0) u.predictions.push({ ...p, shares: res.body.remainingShares });
          return;
        }
        case 'perpOpen': {
          const res = await send(kind, '/api/markets/perps/open', {
            token: u.token,
            money: true,
            // Mostly modest leverage; one in four high enough that the tick's price moves liquidate some.
            body: { ticker: pick(tickers), side: rng() < 0.5 ? 'long' : 'short', size: between(10, 400), leverage: rng() < 0.75 ? Math.ceil(rng() * 10) : 20 + Math.floor(rng() * 31) },
          });
          if (res.status === 200) u.perps.push(res.body.position.id);
          return;
        }
        case 'perpClose': {
          const id = take(u.perps);
          if (!id) return runOp('perpOpen', u);
          // One close in eight is sent twice at once: exactly one may succeed.
          const twice = rng() < 0.125;
          const res = await Promise.all(
            Array.from({ length: twice ? 2 : 1 }, () => send(twice ? 'perpCloseTwice' : kind, `/api/markets/perps/${id}/close`, { token: u.token, money: true })),
          );
          if (res.filter((r) => r.status === 200).length > 1) report.failures.push(`perp position ${id} closed twice`);
          return;
        }
        case 'poolDeposit': {
          const pool = pick(pools);
          const res = await send(kind, `/api/pools/${pool.id}/deposit`, { token: u.token, money: true, body: { amount: between(5, 60) } });
          if (res.status === 200) u.deposits.push({ poolId: pool.id, depositId: res.body.deposit.id, shares: res.body.deposit.shares });
          return;
        }
        case 'poolWithdraw': {
          const d = take(u.deposits);
          if (!d) return runOp('poolDeposit', u);
          const all = rng() < 0.5;
          const shares = all ? d.shares : Number((d.shares / 2).toFixed(6));
          const res = await send(kind, `/api/pools/${d.poolId}/withdraw`, { token: u.token, money: true, body: { depositId: d.depositId, shares } });
          if (res.status === 200 && !all) u.deposits.push({ ...d, shares: d.shares - res.body.withdrawal.shares });
          return;
        }
        case 'npcInvest': {
          const pool = pick(pools);
          const held = u.deposits.some((d) => d.poolId === pool.id);
          const withdraw = held && rng() < 0.4;
          await send(kind, `/api/npc/${pool.npcActorId}/invest`, {
            token: u.token,
            money: true,
            body: withdraw ? { action: 'withdraw', amount: between(1, 5) } : { action: 'deposit', amount: between(5, 40) },
          });
          // Lots change under the client's feet here: later withdrawals by depositId may find fewer shares (a 400, counted).
          return;
        }
        case 'pointsTransfer': {
          await send(kind, '/api/points/transfer', { token: u.token, money: true, body: { toUserId: other(u).id, amount: 1 + Math.floor(rng() * 10), reason: 'soak' } });
          return;
        }
        case 'a2aPayment': {
          const to = other(u);
          const req = await send('a2aPaymentRequest', '/api/a2a', {
            token: u.token,
            money: true,
            body: { jsonrpc: '2.0', id: 1, method: 'a2a.paymentRequest', params: { to: to.id, amount: String(between(0.01, 20, 4)), service: 'soak' } },
          });
          const requestId = req.body?.result?.requestId;
          if (!requestId) return;
          await send('a2aPaymentReceipt', '/api/a2a', {
            token: u.token,
            money: true,
            body: { jsonrpc: '2.0', id: 2, method: 'a2a.paymentReceipt', params: { requestId } },
          });
          return;
        }
      }
    };

    // The run: `concurrency` workers share the operation counter; beside them one tick at a time,
    // each after another tickEvery operations have finished (a slow tick delays the next, never skips it).
    const t2 = Date.now();
    let next = 0;
    let done = 0;
    let finished = false;
    const worker = async () => {
      for (;;) {
        const i = next++;
        if (i >= o.ops) return;
        await runOp(pickKind(), pick(usersList));
        done++;
        if (done % 1000 === 0) log(`${done} ops, ${((done * 1000) / (Date.now() - t2)).toFixed(0)} ops/s, ${report.failures.length} failures`);
      }
    };
    const ticker = async () => {
      for (let due = o.tickEvery; due < o.ops; due += o.tickEvery) {
        while (done < due && !finished) await new Promise((resolve) => setTimeout(resolve, 20));
        if (finished) return;
        await tick();
      }
    };
    const ticking = ticker();
    await Promise.all(Array.from({ length: o.concurrency }, worker));
    finished = true;
    await ticking;
    report.durationMs = Date.now() - t2;
    report.opsPerSec = Math.round((o.ops * 1000) / report.durationMs);

    report.invariants = await checkInvariants(databaseUrl);
  } catch (e) {
    report.failures.push(`soak aborted: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
    if (server) report.serverErrors = server.logs().split('\n').slice(-40);
  } finally {
    // What the server logged about the failures (its errors carry the requestId of the answer).
    if (server && report.failures.length) {
      const errors = server.logs().split('\n').filter((l) => /error|Error|failed/.test(l));
      report.serverErrors = errors.slice(-60);
    }
    await server?.stop();
    if (db) await dropDatabase(db.name).catch((e) => report.failures.push(`drop ${db!.name}: ${e.message}`));
  }
  report.ok = report.failures.length === 0 && report.invariants.length > 0 && report.invariants.every((i) => i.ok);
  return report;
};

/**
 * The invariants on the database itself, in this process: test/invariants.ts (ledger chain and
 * balance = newest row, never negative; points chain; pool books and NAV = holdings) plus what
 * the soak adds (no negative share, lot or collateral). Each is reported, none stops the others.
 */
export const checkInvariants = async (databaseUrl: string): Promise<TInvariantResult[]> => {
  const saved = { DATABASE_URL: process.env.DATABASE_URL, NODE_ENV: process.env.NODE_ENV };
  process.env.DATABASE_URL = databaseUrl;
  const { resetEnvCache } = await import('@/lib/env');
  const { closeDb, getDb, rowsOf } = await import('@/db/client');
  await closeDb();
  resetEnvCache();
  const out: TInvariantResult[] = [];
  const check = async (name: string, fn: () => Promise<unknown>) => {
    try {
      await fn();
      out.push({ name, ok: true });
    } catch (e) {
      out.push({ name, ok: false, error: e instanceof Error ? e.message.slice(0, 2000) : String(e) });
    }
  };
  try {
    const inv = await import('../test/invariants');
    const { sql } = await import('drizzle-orm');
    await check('ledger: every row chains, every balance = its newest row, none negative', () => inv.expectLedgerChain());
    await check('points: every row chains, every user = its newest row, none negative', () => inv.expectPointsChain());
    await check('pools: shares, net deposits, ledger flows, fees, NAV = holdings recomputed from rows', () => inv.expectPoolBooks());
    await check('no negative shares, lots or collateral; no open perp without collateral', async () => {
      const db = await getDb();
      const [r] = rowsOf<{ shares: string; lots: string; perps: string }>(
        await db.execute(sql`select
          (select count(*) from market_positions where shares < 0)::text as shares,
          (select count(*) from pool_deposits where remaining_shares < 0 or cost_basis < 0)::text as lots,
          (select count(*) from perp_positions where collateral < 0 or (status = 'open' and collateral <= 0))::text as perps`),
      );
      const bad = { shares: Number(r!.shares), lots: Number(r!.lots), perps: Number(r!.perps) };
      if (bad.shares || bad.lots || bad.perps) throw new Error(`negative rows: ${JSON.stringify(bad)}`);
    });
    await check('every perp position closed at most once (one close trade each)', async () => {
      const db = await getDb();
      const rows = rowsOf<{ position_id: string; n: string }>(
        await db.execute(sql`select pt.position_id, count(*)::text as n from perp_trades pt
          where pt.action in ('close', 'liquidation') group by pt.position_id having count(*) > 1 limit 5`),
      );
      if (rows.length) throw new Error(`positions closed more than once: ${JSON.stringify(rows)}`);
    });
  } finally {
    await closeDb();
    process.env.DATABASE_URL = saved.DATABASE_URL;
    if (saved.DATABASE_URL === undefined) delete process.env.DATABASE_URL;
    resetEnvCache();
  }
  return out;
};

/** The report as lines: ops by kind and outcome, statuses, throughput, ticks, invariants, failures. */
export const formatReport = (r: TSoakReport) => {
  const lines = [
    `soak: ${r.ops} ops from ${r.users} users, concurrency ${r.concurrency}, seed ${r.seed}: ${r.ok ? 'PASS' : 'FAIL'}`,
    `  ${(r.durationMs / 1000).toFixed(1)} s, ${r.opsPerSec} ops/s, ${r.requests} requests; statuses ${JSON.stringify(r.statuses)}; rate-limited (429) ${r.rateLimited}`,
    `  ticks: ${r.ticks.ran} ran (${r.ticks.tickMs.length ? Math.round(r.ticks.tickMs.reduce((x, y) => x + y, 0) / r.ticks.tickMs.length) : 0} ms mean, ${Math.max(0, ...r.ticks.tickMs)} ms max), ${r.ticks.skipped} skipped, ${r.ticks.failed} failed; game time ${r.ticks.gameTime}; funding periods paid ${r.ticks.fundingPeriods}, questions resolved ${r.ticks.resolved}, liquidations ${r.ticks.liquidations}`,
    ...r.ticks.stepErrors.slice(0, 10).map((e) => `  tick step error: ${e}`),
    '  by kind:',
    ...Object.entries(r.byKind)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `    ${k.padEnd(18)} ${Object.entries(v).sort(([a], [b]) => a.localeCompare(b)).map(([s, n]) => `${s}: ${n}`).join(', ')}`),
    '  invariants:',
    ...r.invariants.map((i) => `    ${i.ok ? 'ok  ' : 'FAIL'} ${i.name}${i.error ? `\n      ${i.error.split('\n').join('\n      ')}` : ''}`),
    ...(r.failures.length ? [`  failures (${r.failures.length}):`, ...r.failures.slice(0, 20).map((f) => `    ${f}`)] : []),
    ...(r.serverErrors.length ? ['  server errors:', ...r.serverErrors.map((l) => `    ${l}`)] : []),
  ];
  return lines.join('\n');
};

/** Options from flags (`--ops 1500`) and the environment (SOAK_OPS), flags first. */
export const soakOptionsFrom = (argv: readonly string[], env: Record<string, string | undefined>): TSoakOptions => {
  const flag = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  };
  const num = (name: string, envName: string, fallback: number) => {
    const v = Number(flag(name) ?? env[envName] ?? fallback);
    if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} / ${envName} must be a positive number`);
    return v;
  };
  const ops = num('ops', 'SOAK_OPS', 10_000);
  return {
    ops,
    users: num('users', 'SOAK_USERS', 200),
    concurrency: num('concurrency', 'SOAK_CONCURRENCY', 24),
    seed: num('seed', 'SOAK_SEED', 1),
    tickEvery: num('tick-every', 'SOAK_TICK_EVERY', Math.max(50, Math.round(ops / 40))),
    tickMinutes: num('tick-minutes', 'SOAK_TICK_MINUTES', 120),
    port: num('port', 'SOAK_PORT', 3423),
    idempotencyKeys: (flag('idempotency-keys') ?? env.SOAK_IDEMPOTENCY_KEYS ?? '1') !== '0',
    baseUrl: flag('base-url') ?? env.SOAK_BASE_URL,
    databaseUrl: env.SOAK_DATABASE_URL,
  };
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.env.SOAK_PG_URL) process.env.OPS_PG_URL = process.env.SOAK_PG_URL;
  const report = await runSoak(soakOptionsFrom(process.argv.slice(2), process.env));
  console.log(formatReport(report));
  process.exit(report.ok ? 0 : 1);
}
