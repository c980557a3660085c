/**
 * Crashes lose nothing (issue 20, item 4): fault tests against production server processes, on
 * this machine only, each bounded in time.
 *  - kill -9 of a server in the middle of a load of buys, sells, perp opens and closes, pool
 *    deposits and withdrawals and points transfers: after a restart every request answered 2xx is
 *    in the database (by the ids its answer gave, and its stored Idempotency-Key answer), nothing
 *    unanswered is half-applied (per user and operation: effects = stored keys = ledger rows), the
 *    ledger and points chains hold for every user; every unanswered request resent with its key
 *    then moves money at most once.
 *  - PostgreSQL restarted (pg_ctl restart -m fast) under the same load: every answer is 2xx, 4xx or
 *    503 (never 500, never past the deadline + slack), the pool reconnects by itself, same checks.
 *  - Redis stopped: rate limiting goes on in the instance's memory (headers, and the 31st buy in a
 *    minute refused), with one warning; when Redis returns the counting goes back to it.
 *  - The SSE hub's LISTEN connection killed: the stream still gets every post, in order, once.
 *  - kill -9 of one worker of a server with WEB_CONCURRENCY=2 under load: requests go on being
 *    answered by the other, only those in flight at the kill may fail, the worker is replaced, the
 *    same database checks hold, and SIGTERM to the primary stops every worker.
 * Everything runs on a throwaway PostgreSQL cluster and redis-server (test/ops/processes.ts), never
 * on the machine's shared ones. The tests share one cluster, database and server, in order.
 * Needs a production build (OPS_APP_DIR or the working directory; test/ops/servers.ts).
 */
import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFrames, type TFrame } from '../sse';
import { killHard, startPgCluster, startRedis, type TPgCluster, type TRedis } from './processes';
import { opsToken, startServer, workerPids, type TServer } from './servers';

const PORT_A = 3410;
const PORT_B = 3411;
const PORT_WORKERS = 3412;
/** The API's request deadline (10 s) plus slack: no answer may take longer, fault or not. */
const ANSWER_WITHIN_MS = 15_000;
const USERS = 24;
const ADMIN = `ops-faults-admin-${process.pid}`;
const SERVER_ENV = { ADMIN_SUBJECTS: ADMIN, STARTING_BALANCE: '5000', DB_POOL_MAX: '10' };

type TKind = 'buy' | 'sell' | 'perpOpen' | 'perpClose' | 'deposit' | 'withdraw' | 'transfer';
/** The operation id each kind runs (idempotency_keys.operation). */
const OPERATION: Record<TKind, string> = {
  buy: 'predictions.buy',
  sell: 'predictions.sell',
  perpOpen: 'perps.open',
  perpClose: 'perps.close',
  deposit: 'pools.deposit',
  withdraw: 'pools.withdraw',
  transfer: 'points.transfer',
};

type TUser = {
  id: string;
  token: string;
  predictions: { marketId: string; positionId: string; shares: number }[];
  perps: string[];
  deposits: { poolId: string; depositId: string; shares: number }[];
};

/** One money request as sent: answered (status > 0) or not (0: the connection failed). */
type TRecord = {
  user: TUser;
  kind: TKind;
  path: string;
  body?: unknown;
  key: string;
  status: number;
  res?: any;
  ms: number;
  /** When it was sent (Date.now()). */
  at: number;
  error?: string;
};

let cluster: TPgCluster;
let redis: TRedis;
let dbUrl: string;
let server: TServer | undefined;
const extraServers: TServer[] = [];
let users: TUser[] = [];
let world: { markets: string[]; tickers: string[]; pools: string[] } = { markets: [], tickers: [], pools: [] };
const records: TRecord[] = [];

const base = () => server!.base;
const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!;
const take = <T>(xs: T[]) => (xs.length ? xs.splice(Math.floor(Math.random() * xs.length), 1)[0] : undefined);

const call = async (url: string, init: { method?: string; token?: string; body?: unknown; key?: string; timeoutMs?: number } = {}) => {
  const headers: Record<string, string> = {};
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.key) headers['idempotency-key'] = init.key;
  const res = await fetch(url, {
    method: init.method ?? (init.body === undefined && !init.key ? 'GET' : 'POST'),
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: AbortSignal.timeout(init.timeoutMs ?? ANSWER_WITHIN_MS),
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body, headers: res.headers };
};

/** Sends one money request with a fresh Idempotency-Key and records what came back. */
const send = async (user: TUser, kind: TKind, path: string, body?: unknown): Promise<TRecord> => {
  const t0 = Date.now();
  const rec: TRecord = { user, kind, path, body, key: randomUUID(), status: 0, ms: 0, at: t0 };
  records.push(rec);
  try {
    const r = await call(`${base()}${path}`, { token: user.token, body, key: rec.key, method: 'POST' });
    rec.status = r.status;
    rec.res = r.body;
  } catch (e) {
    const cause = e instanceof Error ? (e.cause as { code?: string; message?: string } | undefined) : undefined;
    rec.error = e instanceof Error ? `${e.name}: ${e.message}${cause ? ` (${cause.code ?? cause.message})` : ''}` : String(e);
  }
  rec.ms = Date.now() - t0;
  return rec;
};

/** One random money operation for `u`, keeping the client's view of what it holds. */
const step = async (u: TUser) => {
  const r = Math.random();
  if (r < 0.22) {
    const marketId = pick(world.markets);
    const rec = await send(u, 'buy', `/api/markets/predictions/${marketId}/buy`, { outcome: Math.random() < 0.5 ? 'YES' : 'NO', amount: 5 + Math.floor(Math.random() * 20) });
    if (rec.status === 200) u.predictions.push({ marketId, positionId: rec.res.position.id, shares: rec.res.position.shares });
  } else if (r < 0.36) {
    const p = take(u.predictions);
    if (!p) return step(u);
    const rec = await send(u, 'sell', `/api/markets/predictions/${p.marketId}/sell`, { positionId: p.positionId, shares: p.shares });
    if (rec.status !== 200) u.predictions.push(p);
  } else if (r < 0.52) {
    const rec = await send(u, 'perpOpen', '/api/markets/perps/open', {
      ticker: pick(world.tickers),
      side: Math.random() < 0.5 ? 'long' : 'short',
      size: 20 + Math.floor(Math.random() * 200),
      leverage: 1 + Math.floor(Math.random() * 5),
    });
    if (rec.status === 200) u.perps.push(rec.res.position.id);
  } else if (r < 0.64) {
    const id = take(u.perps);
    if (!id) return step(u);
    const rec = await send(u, 'perpClose', `/api/markets/perps/${id}/close`);
    if (rec.status !== 200 && rec.status !== 400) u.perps.push(id);
  } else if (r < 0.78) {
    const poolId = pick(world.pools);
    const rec = await send(u, 'deposit', `/api/pools/${poolId}/deposit`, { amount: 10 + Math.floor(Math.random() * 40) });
    if (rec.status === 200) u.deposits.push({ poolId, depositId: rec.res.deposit.id, shares: Number(rec.res.deposit.shares) });
  } else if (r < 0.88) {
    const d = take(u.deposits);
    if (!d) return step(u);
    const rec = await send(u, 'withdraw', `/api/pools/${d.poolId}/withdraw`, { depositId: d.depositId, shares: d.shares });
    if (rec.status !== 200) u.deposits.push(d);
  } else {
    let to = pick(users);
    while (to === u) to = pick(users);
    await send(u, 'transfer', '/api/points/transfer', { toUserId: to.id, amount: 1 + Math.floor(Math.random() * 5), reason: 'ops faults' });
  }
};

/** `concurrency` workers run random operations until `stop()`; resolves when they all have. */
const startLoad = (concurrency: number) => {
  let stopping = false;
  const workers = Array.from({ length: concurrency }, async (_, w) => {
    for (let i = 0; !stopping; i++) {
      const u = users[(w + i * concurrency) % users.length]!;
      await step(u);
    }
  });
  return {
    stop: async () => {
      stopping = true;
      await Promise.all(workers);
    },
  };
};

const until = async (what: string, fn: () => Promise<boolean>, timeoutMs: number, everyMs = 250) => {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await fn().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`${what}: not within ${timeoutMs} ms`);
};

/**
 * What must hold in the database after any of the faults, checked on its rows (not through the
 * server): a list of problems, empty when all is well.
 */
const checkDatabase = async (answered: TRecord[]): Promise<string[]> => {
  const sql = postgres(dbUrl, { max: 2, onnotice: () => {} });
  const problems: string[] = [];
  try {
    const ids = users.map((u) => u.id);
    // 1. Every request answered 2xx is there: its stored answer and the ids its answer gave.
    const keys = await sql<{ user_id: string; key: string; operation: string; status: number }[]>`
      select user_id, key, operation, status from idempotency_keys where user_id = any(${ids})`;
    const stored = new Map(keys.map((k) => [`${k.user_id}|${k.key}`, k]));
    const want = {
      positions: new Set<string>(),
      perpsOpen: new Set<string>(),
      perpsClosed: new Set<string>(),
      deposits: new Set<string>(),
      withdrawals: new Set<string>(),
      transfers: new Set<string>(),
    };
    for (const r of answered) {
      if (r.status < 200 || r.status >= 300) continue;
      const k = stored.get(`${r.user.id}|${r.key}`);
      if (!k || k.operation !== OPERATION[r.kind]) problems.push(`${r.kind} ${r.key} answered ${r.status} but no stored answer for its key`);
      if (r.kind === 'buy') want.positions.add(r.res.position.id);
      if (r.kind === 'perpOpen') want.perpsOpen.add(r.res.position.id);
      if (r.kind === 'perpClose') want.perpsClosed.add(r.res.positionId);
      if (r.kind === 'deposit') want.deposits.add(r.res.deposit.id);
      if (r.kind === 'withdraw') want.withdrawals.add(r.res.withdrawal.id);
      if (r.kind === 'transfer') want.transfers.add(r.res.transfer.id);
    }
    const missing = async (what: string, set: Set<string>, query: (ids: string[]) => Promise<{ id: string }[]>) => {
      if (!set.size) return;
      const found = new Set((await query([...set])).map((r) => r.id));
      for (const id of set) if (!found.has(id)) problems.push(`${what} ${id} answered but not in the database`);
    };
    await missing('prediction position', want.positions, (x) => sql`select position_id as id from trades where position_id = any(${x})`);
    await missing('perp position', want.perpsOpen, (x) => sql`select id from perp_positions where id = any(${x})`);
    await missing('closed perp position', want.perpsClosed, (x) => sql`select id from perp_positions where id = any(${x}) and status <> 'open' and closed_at is not null`);
    await missing('pool deposit', want.deposits, (x) => sql`select id from pool_deposits where id = any(${x})`);
    await missing('pool withdrawal', want.withdrawals, (x) => sql`select id from pool_withdrawals where id = any(${x})`);
    await missing('points transfer', want.transfers, (x) => sql`select metadata->>'transferId' as id from points_transactions where reason = 'transfer_out' and metadata->>'transferId' = any(${x})`);

    // 2. Nothing half-applied, nothing applied twice: per user and operation, the effects, the
    //    stored answers (same transaction) and the user's ledger rows agree.
    const counts = await sql<Record<string, string>[]>`
      select u.id,
        (select count(*) from trades t where t.user_id = u.id and t.action = 'buy') as buys,
        (select count(*) from trades t where t.user_id = u.id and t.action = 'sell') as sells,
        (select count(*) from perp_positions p where p.user_id = u.id) as opens,
        (select count(*) from perp_trades p where p.user_id = u.id and p.action = 'open') as open_trades,
        (select count(*) from perp_trades p where p.user_id = u.id and p.action = 'close') as closes,
        (select count(*) from pool_deposits d where d.user_id = u.id) as deposits,
        (select count(*) from pool_withdrawals w where w.user_id = u.id) as withdrawals,
        (select count(*) from points_transactions x where x.user_id = u.id and x.reason = 'transfer_out') as transfers,
        (select count(*) from balance_transactions b where b.user_id = u.id and b.type = 'pred_buy') as l_buys,
        (select count(*) from balance_transactions b where b.user_id = u.id and b.type = 'pred_sell') as l_sells,
        (select count(*) from balance_transactions b where b.user_id = u.id and b.type = 'perp_open') as l_opens,
        (select count(*) from balance_transactions b where b.user_id = u.id and b.type = 'pool_deposit') as l_deposits,
        ${sql.unsafe(
          Object.entries(OPERATION)
            .map(([kind, op]) => `(select count(*) from idempotency_keys k where k.user_id = u.id and k.operation = '${op}' and k.status between 200 and 299) as "k_${kind}"`)
            .join(', '),
        )}
      from users u where u.id = any(${ids})`;
    for (const c of counts) {
      const eq = (what: string, a: string | undefined, b: string | undefined) => {
        if (a !== b) problems.push(`user ${c.id}: ${what} (${a} vs ${b})`);
      };
      eq('buys vs stored buy answers', c.buys, c.k_buy);
      eq('sells vs stored sell answers', c.sells, c.k_sell);
      eq('perp positions vs stored open answers', c.opens, c.k_perpOpen);
      eq('perp open trades vs positions', c.open_trades, c.opens);
      eq('perp close trades vs stored close answers', c.closes, c.k_perpClose);
      eq('pool deposits vs stored deposit answers', c.deposits, c.k_deposit);
      eq('pool withdrawals vs stored withdraw answers', c.withdrawals, c.k_withdraw);
      eq('transfers out vs stored transfer answers', c.transfers, c.k_transfer);
      eq('ledger pred_buy rows vs buys', c.l_buys, c.buys);
      eq('ledger pred_sell rows vs sells', c.l_sells, c.sells);
      eq('ledger perp_open rows vs positions', c.l_opens, c.opens);
      eq('ledger pool_deposit rows vs deposits', c.l_deposits, c.deposits);
    }
    const [pts] = await sql<{ outs: string; ins: string }[]>`
      select count(*) filter (where reason = 'transfer_out') as outs, count(*) filter (where reason = 'transfer_in') as ins from points_transactions`;
    if (pts!.outs !== pts!.ins) problems.push(`points transfers: ${pts!.outs} out rows, ${pts!.ins} in rows`);

    // 3. The ledger and points chains, for every user (test/invariants.ts, on this database).
    const broken = await sql<{ user_id: string; seq: string }[]>`
      select user_id, seq::text from (
        select user_id, seq, amount, balance_before, balance_after,
          lag(balance_after) over (partition by user_id order by seq) as prev_after
        from balance_transactions) t
      where balance_after <> balance_before + amount or (prev_after is null and balance_before <> 0)
         or (prev_after is not null and balance_before <> prev_after)`;
    for (const b of broken) problems.push(`ledger row ${b.seq} of ${b.user_id} breaks the chain`);
    const off = await sql<{ id: string }[]>`
      select u.id from users u left join lateral (
        select bt.balance_after from balance_transactions bt where bt.user_id = u.id order by bt.seq desc limit 1) last on true
      where u.virtual_balance <> coalesce(last.balance_after, 0) or u.virtual_balance < 0`;
    for (const o of off) problems.push(`user ${o.id}: balance is not its newest ledger row, or negative`);
    const brokenPoints = await sql<{ user_id: string; seq: string }[]>`
      select user_id, seq::text from (
        select user_id, seq, amount, points_before, points_after,
          lag(points_after) over (partition by user_id order by seq) as prev_after
        from points_transactions) t
      where points_after <> points_before + amount or points_after < 0 or (prev_after is null and points_before <> 0)
         or (prev_after is not null and points_before <> prev_after)`;
    for (const b of brokenPoints) problems.push(`points row ${b.seq} of ${b.user_id} breaks the chain`);
    const offPoints = await sql<{ id: string }[]>`
      select u.id from users u left join lateral (
        select pt.points_after from points_transactions pt where pt.user_id = u.id order by pt.seq desc limit 1) last on true
      where u.reputation_points <> coalesce(last.points_after, 0)`;
    for (const o of offPoints) problems.push(`user ${o.id}: points are not its newest points row`);
  } finally {
    await sql.end({ timeout: 2 });
  }
  return problems;
};

const summary = (rs: TRecord[]) => {
  const by: Record<string, number> = {};
  for (const r of rs) by[`${r.kind} ${r.status || 'unanswered'}`] = (by[`${r.kind} ${r.status || 'unanswered'}`] ?? 0) + 1;
  return by;
};

const startA = () => startServer({ port: PORT_A, label: 'faults-a', env: { ...SERVER_ENV, DATABASE_URL: dbUrl } });

describe('faults: nothing answered is lost, nothing unanswered is half-applied', () => {
  beforeAll(async () => {
    cluster = await startPgCluster();
    redis = await startRedis();
    dbUrl = await cluster.createDatabase('pm_ops_faults');
    server = await startA();
    const admin = await opsToken(ADMIN);
    users = await Promise.all(
      Array.from({ length: USERS }, async (_, i) => {
        const token = await opsToken(`ops-faults-${process.pid}-${i}`);
        const me = await call(`${base()}/api/users/me`, { token });
        expect(me.status, JSON.stringify(me.body).slice(0, 300)).toBe(200);
        return { id: me.body.user?.id ?? me.body.id, token, predictions: [], perps: [], deposits: [] } as TUser;
      }),
    );
    for (const u of users) {
      const r = await call(`${base()}/api/users/points/award`, { token: admin, body: { userId: u.id, amount: 500, reason: 'ops faults' } });
      expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
    }
    const [m, p, pl] = await Promise.all([
      call(`${base()}/api/markets/predictions?status=active&limit=50`),
      call(`${base()}/api/markets/perps`),
      call(`${base()}/api/pools`),
    ]);
    world = {
      markets: (m.body.questions ?? m.body.markets).map((q: { id: string }) => q.id),
      tickers: (p.body.tickers ?? p.body.markets).map((t: { ticker: string }) => t.ticker),
      pools: pl.body.pools.filter((x: { isActive: boolean }) => x.isActive).map((x: { id: string }) => x.id),
    };
    expect(world.markets.length && world.tickers.length && world.pools.length, JSON.stringify(world)).toBeTruthy();
  }, 300_000);

  afterAll(async () => {
    for (const s of [server, ...extraServers]) await s?.stop().catch(() => {});
    await redis?.stop().catch(() => {});
    await cluster?.stop().catch(() => {});
  }, 60_000);

  it('kill -9 mid-load: answered requests are kept, unanswered ones are all or nothing, and a resend moves money at most once', async () => {
    const from = records.length;
    const load = startLoad(12);
    // Let the load build up (and every kind of operation happen), then kill the server mid-flight.
    await until('a mix of answered operations', async () => new Set(records.slice(from).filter((r) => r.status === 200).map((r) => r.kind)).size >= 5, 20_000, 100);
    await new Promise((r) => setTimeout(r, 500));
    await killHard(server!.proc);
    await load.stop();
    const sent = records.slice(from);
    const unanswered = sent.filter((r) => r.status === 0);
    console.info('[faults] kill -9:', JSON.stringify(summary(sent)));
    expect(sent.filter((r) => r.status >= 500), 'no 5xx before the kill').toEqual([]);
    expect(unanswered.length, 'the kill caught requests in flight').toBeGreaterThan(0);

    server = await startA();
    expect(await checkDatabase(sent)).toEqual([]);

    // Each unanswered request again, with its key: the stored answer if it had committed
    // (Idempotent-Replayed: true), or a first run now; never a second effect.
    let replayed = 0;
    for (const r of unanswered) {
      const again = await call(`${base()}${r.path}`, { token: r.user.token, body: r.body, key: r.key, method: 'POST' });
      expect(again.status, `${r.kind} resent: ${JSON.stringify(again.body).slice(0, 300)}`).toBeLessThan(500);
      if (again.headers.get('idempotent-replayed') === 'true') replayed++;
      r.status = again.status;
      r.res = again.body;
    }
    // And every answered one too: each is replayed, none runs twice.
    for (const r of sent.filter((x) => x.status === 200).slice(0, 40)) {
      const again = await call(`${base()}${r.path}`, { token: r.user.token, body: r.body, key: r.key, method: 'POST' });
      expect(again.status, `${r.kind} repeated`).toBe(200);
      expect(again.headers.get('idempotent-replayed'), `${r.kind} repeated with its key is a replay`).toBe('true');
    }
    console.info(`[faults] kill -9: ${unanswered.length} unanswered resent, ${replayed} of them had committed before the kill`);
    expect(await checkDatabase(sent)).toEqual([]);
  }, 150_000);

  it('PostgreSQL restarted under load: 2xx, 4xx or 503 within the deadline, never 500; the pool reconnects by itself', async () => {
    const from = records.length;
    const load = startLoad(12);
    // The A2A transport alongside: a JSON-RPC read that needs the database.
    const rpc: { status: number; code?: number; data?: { code?: string; status?: number }; error?: string }[] = [];
    let rpcStop = false;
    const rpcLoop = (async () => {
      for (let i = 0; !rpcStop; i++) {
        const u = users[i % users.length]!;
        try {
          const r = await call(`${base()}/api/a2a`, { token: u.token, body: { jsonrpc: '2.0', id: i, method: 'a2a.getBalance', params: {} } });
          rpc.push({ status: r.status, code: r.body?.error?.code, data: r.body?.error?.data });
        } catch (e) {
          rpc.push({ status: 0, error: String(e) });
        }
      }
    })();
    await new Promise((r) => setTimeout(r, 1_500));
    const t0 = Date.now();
    await cluster.restart();
    const restartMs = Date.now() - t0;
    await new Promise((r) => setTimeout(r, 3_000));
    await load.stop();
    rpcStop = true;
    await rpcLoop;
    const rpcErrors = rpc.filter((r) => r.status !== 200 || r.code !== undefined);
    console.info(`[faults] PostgreSQL restart, A2A: ${rpc.length} calls, errors ${JSON.stringify(rpcErrors.slice(0, 5))}`);
    // A JSON-RPC answer: success, or the domain error -32000 carrying the REST code and status (503).
    expect(rpcErrors.filter((r) => r.status !== 200 || r.code !== -32000 || r.data?.status !== 503)).toEqual([]);
    const sent = records.slice(from);
    console.info(`[faults] PostgreSQL restart (${restartMs} ms):`, JSON.stringify(summary(sent)));
    const bad = sent.filter((r) => !(r.status >= 200 && r.status < 500) && r.status !== 503);
    expect(bad.map((r) => `${r.kind} ${r.status} ${r.error ?? JSON.stringify(r.res).slice(0, 200)}`), 'answers other than 2xx, 4xx, 503').toEqual([]);
    expect(Math.max(...sent.map((r) => r.ms)), 'slowest answer (ms)').toBeLessThan(ANSWER_WITHIN_MS);
    const unavailable = sent.filter((r) => r.status === 503);
    for (const r of unavailable) expect(['SERVICE_UNAVAILABLE', 'DEADLINE_EXCEEDED']).toContain(r.res?.error?.code);
    // The same server, no restart: requests succeed again.
    const u = users[0]!;
    await until(
      'a buy succeeds after the restart',
      async () => (await send(u, 'buy', `/api/markets/predictions/${world.markets[0]}/buy`, { outcome: 'YES', amount: 2 })).status === 200,
      15_000,
      500,
    );
    const after = await Promise.all(users.slice(1, 9).map((x) => call(`${base()}/api/users/me`, { token: x.token })));
    expect(
      after.map((r) => r.status),
      `after the restart: ${JSON.stringify(after.map((r) => r.body)).slice(0, 600)}\n${server!.logs().split('\n').slice(-30).join('\n')}`,
    ).toEqual(after.map(() => 200));
    expect(await checkDatabase(records.slice(from))).toEqual([]);
  }, 120_000);

  it('Redis stopped: limits go on in the instance memory with a warning, and go back to Redis when it returns', async () => {
    const b = await startServer({ port: PORT_B, label: 'faults-redis', env: { ...SERVER_ENV, DATABASE_URL: dbUrl, REDIS_URL: redis.url } });
    extraServers.push(b);
    const client = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false, retryStrategy: () => 200 });
    client.on('error', () => {});
    try {
      const fresh = async (label: string) => {
        const token = await opsToken(`ops-faults-redis-${label}-${process.pid}`);
        const me = await call(`${b.base}/api/users/me`, { token });
        expect(me.status).toBe(200);
        return token;
      };
      await client.connect();
      const before = await fresh('before');
      await until(
        'counters in Redis while it runs',
        async () => (await call(`${b.base}/api/users/me`, { token: before })).status === 200 && (await client.keys('pm:rl:*')).length > 0,
        10_000,
        300,
      );

      await redis.kill();
      await new Promise((r) => setTimeout(r, 300));
      const token = await fresh('during');
      const market = world.markets[1] ?? world.markets[0]!;
      const statuses: number[] = [];
      for (let i = 0; i < 31; i++) {
        const r = await call(`${b.base}/api/markets/predictions/${market}/buy`, { token, body: { outcome: 'NO', amount: 1 }, key: randomUUID() });
        expect(r.headers.get('x-ratelimit-limit'), 'X-RateLimit headers while Redis is down').toBe('30');
        statuses.push(r.status);
      }
      expect(statuses.slice(0, 30).filter((s) => s !== 200), 'the first 30 buys pass').toEqual([]);
      expect(statuses[30], 'the 31st buy in the minute is refused by the in-memory count').toBe(429);
      expect(b.logs()).toContain("[rate-limit] Redis unavailable: counting in this instance's memory until it returns");

      await redis.start();
      await until('the client reconnects to the restarted Redis', async () => (await client.ping()) === 'PONG', 10_000);
      const back = await opsToken(`ops-faults-redis-after-${process.pid}`);
      await until(
        'counting back in Redis',
        async () => {
          await call(`${b.base}/api/users/me`, { token: back });
          return (await client.keys('pm:rl:*')).length > 0;
        },
        15_000,
        500,
      );
      expect(b.logs()).toContain('[rate-limit] Redis is back: counting in Redis again');
      expect(b.logs().match(/Redis unavailable: counting/g)?.length, `one warning for the outage\n${b.logs()}\n${(await client.keys('*')).join(' ')}`).toBe(1);
    } finally {
      client.disconnect();
      await b.stop();
    }
  }, 120_000);

  it('SSE listener connection killed: the stream reconnects and replays every post, in order, once', async () => {
    const ac = new AbortController();
    const res = await fetch(`${base()}/api/sse/events?channels=feed`, { signal: ac.signal });
    expect(res.status).toBe(200);
    const stream = readFrames(res.body!);
    const frames: TFrame[] = stream.frames;
    try {
      await until('the stream opens', async () => frames.some((f) => f.retry !== undefined), 10_000, 100);
      const author = users[2]!;
      const posted: string[] = [];
      const post = async (n: number) => {
        const r = await call(`${base()}/api/posts`, { token: author.token, body: { content: `ops faults post ${n} ${randomUUID().slice(0, 8)}` } });
        expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(201);
        posted.push(r.body.post.id);
      };
      const received = () => frames.filter((f) => f.event === 'feed_update').map((f) => f.data?.data?.post?.id as string);
      await post(1);
      await until('the first post arrives live', async () => received().includes(posted[0]!), 10_000, 100);

      const listeners = async () => cluster.sql<{ pid: number }>(`select pid from pg_stat_activity where query ilike 'listen%' and datname = 'pm_ops_faults'`);
      expect((await listeners()).length, 'the hub listens').toBeGreaterThan(0);
      const killed = await cluster.sql<{ ok: boolean }>(`select pg_terminate_backend(pid) as ok from pg_stat_activity where query ilike 'listen%' and datname = 'pm_ops_faults'`);
      expect(killed.some((k) => k.ok)).toBe(true);
      // During the reconnect, and after it.
      await post(2);
      await post(3);
      await new Promise((r) => setTimeout(r, 1_000));
      await post(4);
      await post(5);
      await until('every post arrives', async () => posted.every((id) => received().includes(id)), 15_000, 200);
      const mine = received().filter((id) => posted.includes(id));
      expect(mine, 'each post once, in order').toEqual(posted);
      const ids = frames.filter((f) => f.id).map((f) => f.id);
      expect(new Set(ids).size, 'no frame twice').toBe(ids.length);
      await until('the hub listens again', async () => (await listeners()).length > 0, 10_000);
    } finally {
      await stream.close();
      ac.abort();
    }
  }, 60_000);
  it('kill -9 of one of two workers under load: the other answers, only in-flight requests fail, the worker is replaced', async () => {
    const single = server;
    const multi = await startServer({
      port: PORT_WORKERS,
      label: 'faults-workers',
      env: { ...SERVER_ENV, DATABASE_URL: dbUrl, REDIS_URL: redis.url, WEB_CONCURRENCY: '2' },
    });
    extraServers.push(multi);
    server = multi;
    try {
      await until('both workers listen', async () => workerPids(multi).length === 2, 60_000);
      const [victim, survivor] = workerPids(multi) as [number, number];
      const from = records.length;
      const load = startLoad(12);
      // Reads alongside the money load: every one sent after the kill must be answered.
      const reads: { at: number; status: number; code?: string; error?: string }[] = [];
      let readsStop = false;
      const readLoop = (async () => {
        for (let i = 0; !readsStop; i++) {
          const at = Date.now();
          try {
            const r = await call(`${base()}/api/users/me`, { token: users[i % users.length]!.token });
            reads.push({ at, status: r.status, code: r.body?.error?.code });
          } catch (e) {
            reads.push({ at, status: 0, error: String(e) });
          }
        }
      })();
      await until('a mix of answered operations', async () => new Set(records.slice(from).filter((r) => r.status === 200).map((r) => r.kind)).size >= 4, 20_000, 100);
      const killedAt = Date.now();
      process.kill(victim, 'SIGKILL');
      await until('the dead worker is replaced', async () => workerPids(multi).filter((p) => p !== victim && p !== survivor).length === 1, 90_000);
      const replacedAt = Date.now();
      // And the load runs on a while with two workers again.
      await new Promise((r) => setTimeout(r, 2_000));
      await load.stop();
      readsStop = true;
      await readLoop;
      const sent = records.slice(from);
      console.info(`[faults] worker kill -9 (replaced in ${replacedAt - killedAt} ms):`, JSON.stringify(summary(sent)), `reads ${reads.length}`);
      expect(multi.logs()).toMatch(new RegExp(`worker ${victim} exited \\(SIGKILL\\); starting a replacement`));
      expect(multi.proc.exitCode, 'the primary lives on').toBeNull();
      expect(workerPids(multi)).toContain(survivor);
      // In flight on the dead worker: sent before the kill, or soon after it on a pooled keep-alive
      // socket to that worker (the client sees it closed only when it reads the socket's end, and
      // the primary hands a new connection to it until it has seen the worker exit): 2 s of grace.
      const GRACE_MS = 2_000;
      const inFlight = (at: number) => at < killedAt + GRACE_MS;
      const lost = [...sent.filter((r) => r.status === 0), ...reads.filter((r) => r.status === 0)];
      const describe = (r: { at: number; error?: string }) => `${'kind' in r ? r.kind : 'read'} sent ${r.at - killedAt} ms after the kill: ${r.error}`;
      console.info(`[faults] worker kill -9: unanswered: ${JSON.stringify(lost.map(describe))}`);
      expect(lost.filter((r) => !inFlight(r.at)).map(describe), 'unanswered after the kill').toEqual([]);
      // Each of the 13 loops (12 load, 1 read) loses at most its request in flight and one sent on
      // another kept-alive socket to the dead worker before the client has seen that socket close.
      expect(lost.length, 'at most the requests in flight on the dead worker').toBeLessThanOrEqual(26);
      // Answers are the API's: 2xx, 4xx, or 503 when the loaded machine misses the request deadline; never a 500.
      const failed = [...sent.map((r) => ({ status: r.status, code: r.res?.error?.code })), ...reads.map((r) => ({ status: r.status, code: r.code }))];
      expect(failed.filter((r) => r.status >= 500 && !(r.status === 503 && ['SERVICE_UNAVAILABLE', 'DEADLINE_EXCEEDED'].includes(r.code))), 'no 5xx but 503').toEqual([]);
      // Answered while one worker was down (the victim dead, its replacement not yet listening): a
      // read answered 200 then was the survivor's. An idle machine replaces the worker in about
      // 1.5 s, inside the in-flight grace, so the window is the kill to the replacement, not after
      // the grace; a replacement faster than the read loop's next call leaves nothing to count.
      if (replacedAt - killedAt >= 300) {
        expect(reads.filter((r) => r.at >= killedAt && r.at < replacedAt && r.status === 200).length, 'reads the survivor answered').toBeGreaterThan(0);
      }
      expect(reads.filter((r) => r.at >= replacedAt && r.status === 200).length).toBeGreaterThan(0);
      expect(await checkDatabase(sent)).toEqual([]);
      // Resent with their keys, the unanswered move money at most once.
      for (const r of sent.filter((x) => x.status === 0)) {
        const again = await call(`${base()}${r.path}`, { token: r.user.token, body: r.body, key: r.key, method: 'POST' });
        expect(again.status, `${r.kind} resent: ${JSON.stringify(again.body).slice(0, 300)}`).toBeLessThan(500);
        r.status = again.status;
        r.res = again.body;
      }
      expect(await checkDatabase(sent)).toEqual([]);
      // SIGTERM to the primary stops every worker through its own handler (exit code 0).
      const workers = workerPids(multi);
      const exited = new Promise<number | null>((resolve) => multi.proc.once('exit', (code) => resolve(code)));
      multi.proc.kill('SIGTERM');
      expect(await exited, 'the primary exits cleanly').toBe(0);
      expect(workers.filter((pid) => workerPids({ ...multi, logs: () => `(worker ${pid})` }).length > 0), 'workers left running').toEqual([]);
    } finally {
      server = single;
      await multi.stop().catch(() => {});
    }
  }, 240_000);
});
