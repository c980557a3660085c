/**
 * The framework floor (docs/SCALING.md "The framework floor"): what an empty route handler serves
 * on the production server, and the API's reads beside it. GET /api/bench/empty answers `{}` with
 * 200 and nothing else when the server was started with BENCH_EMPTY_ROUTE=1 (otherwise the API's
 * JSON 404): no wrapper, no rate limit, no database, so its rate is the most any route of this
 * build can serve through Next.js on this machine, and a route's ratio to it is what our own work
 * costs.
 *
 * benchFloor: autocannon with 32 keep-alive connections for `seconds` each on a running server
 * (started with BENCH_EMPTY_ROUTE=1): the empty handler, then GET /api/health, GET /api/users/me
 * the markets list (GET /api/markets/predictions, 20 a page) and a buy (POST …/buy, 1 to 10 coins on
 * 20 markets of its own), each printed as a figure whose reference is the empty handler; and the
 * empty handler reading a POST body like the buy's (POST /api/bench/empty), with the buy beside it
 * as a second figure: a write's floor, since Next.js hands a body over as a web stream. The reads
 * rotate the run's tokens: anonymous calls all come from one address and would measure the public
 * rate limit's 429 instead.
 * On a loaded machine req/s swings from second to second; the server's CPU time per request
 * (/proc/<pid>/stat before and after) is the steadier measure (docs/SCALING.md).
 */
import { readdirSync, readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { TFigure } from './figures';

export const FLOOR_PATH = '/api/bench/empty';
export const FLOOR_CONNECTIONS = 32;

export type TRate = { rps: number; p50: number; p99: number; non2xx: number; errors: number; cpuMsPerRequest?: number; postgresCpuMsPerRequest?: number };

/** CPU time (user + system, ms) a process has used so far (Linux /proc; undefined elsewhere). */
export const cpuMs = (pid: number | undefined) => {
  if (pid === undefined) return undefined;
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) * 10; // clock ticks of 10 ms
  } catch {
    return undefined;
  }
};

/**
 * CPU time (ms) every PostgreSQL process of this machine has used so far, by pid (Linux /proc;
 * empty elsewhere): the database shares the machine's cores with the server, so a route that
 * makes PostgreSQL work hard is slower beside the floor even where the server's CPU is not.
 */
export const postgresCpuMs = (): Map<number, number> => {
  const out = new Map<number, number>();
  let pids: string[] = [];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return out;
  }
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes(' (postgres) ')) continue;
      const f = stat.split(') ')[1]!.split(' ');
      out.set(Number(pid), (Number(f[11]) + Number(f[12])) * 10);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return out;
};

/** What PostgreSQL's processes used between two readings (a process that ended in between is lost; the pool's stay). */
const postgresCpuSince = (before: Map<number, number>) => {
  let ms = 0;
  for (const [pid, t] of postgresCpuMs()) ms += t - (before.get(pid) ?? 0);
  return ms;
};

/** autocannon on one path; with `pid` (a one-process server), also the server's CPU ms per request. */
/** A request of its own for the i-th call (a POST with a body); the token is still added. */
export type TRequestFor = (i: number) => { path: string; method?: 'POST'; body?: string };

export const measurePath = async (
  base: string,
  path: string | TRequestFor,
  opts: { seconds: number; connections?: number; tokens?: string[]; pid?: number },
): Promise<TRate> => {
  let next = 0;
  const cpu0 = cpuMs(opts.pid);
  const pg0 = opts.pid === undefined ? undefined : postgresCpuMs();
  const tokens = opts.tokens ?? [];
  const result = await autocannon({
    url: base,
    connections: opts.connections ?? FLOOR_CONNECTIONS,
    duration: opts.seconds,
    requests: [
      {
        setupRequest: (req) => {
          const i = next++;
          const own = typeof path === 'string' ? { path } : path(i);
          const headers = { ...req.headers, ...(own.body ? { 'content-type': 'application/json' } : {}) };
          return {
            ...req,
            ...own,
            headers: tokens.length ? { ...headers, authorization: `Bearer ${tokens[i % tokens.length]}` } : headers,
          };
        },
      },
    ],
  });
  const cpu1 = cpuMs(opts.pid);
  const cpuMsPerRequest = cpu0 !== undefined && cpu1 !== undefined && result.requests.total > 0 ? (cpu1 - cpu0) / result.requests.total : undefined;
  const postgresCpuMsPerRequest = pg0 && pg0.size > 0 && result.requests.total > 0 ? postgresCpuSince(pg0) / result.requests.total : undefined;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors, cpuMsPerRequest, postgresCpuMsPerRequest };
};

/** Refuses a server that was not started with BENCH_EMPTY_ROUTE=1 (the handler answers 404 there). */
export const assertFloorRoute = async (base: string) => {
  const res = await fetch(`${base}${FLOOR_PATH}`);
  const body = await res.text();
  if (res.status !== 200 || body !== '{}') throw new Error(`${FLOOR_PATH} answered ${res.status} ${body.slice(0, 200)}: start the server with BENCH_EMPTY_ROUTE=1`);
};

const createFloorMarkets = async (base: string, adminToken: string) => {
  const ids: string[] = [];
  for (let i = 0; i < 20; i++) {
    const res = await fetch(`${base}/api/admin/markets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: `Floor benchmark question number ${i + 1}?`, resolutionDate: new Date(Date.now() + 30 * 86_400_000).toISOString(), liquidity: 100000 }),
    });
    const body = (await res.json()) as { market?: { id: string } };
    if (!body.market) throw new Error(`could not create a market: ${JSON.stringify(body)}`);
    ids.push(body.market.id);
  }
  return ids;
};

const note = (name: string, r: TRate) => {
  const cpu = `${r.cpuMsPerRequest === undefined ? '' : `, ${r.cpuMsPerRequest.toFixed(2)} CPU ms/req`}${r.postgresCpuMsPerRequest === undefined ? '' : `, PostgreSQL ${r.postgresCpuMsPerRequest.toFixed(2)}`}`;
  console.log(`  ${name}: ${r.rps.toFixed(1)} req/s (p50 ${r.p50} ms, p99 ${r.p99} ms${cpu})${r.non2xx || r.errors ? `; ${r.non2xx} non-2xx, ${r.errors} errors` : ''}`);
};

/** The process's resident memory in MB (Linux /proc), to see a server grow across rounds. */
const rssMb = (pid: number) => {
  try {
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
  } catch {
    return 0;
  }
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * `serverPid`: the server's process when it runs one worker (WEB_CONCURRENCY=1), for CPU ms per request.
 * Every path is warmed for 2 s first (the first seconds of a fresh server run its JIT and fill its
 * caches), then measured in BENCH_FLOOR_ROUNDS interleaved rounds (default 3), so a burst of load
 * from elsewhere on the machine falls on every path alike; each figure is the median round.
 * BENCH_FLOOR_ONLY=<part of a label> measures that path alone beside the empty handler (to profile it).
 */
export const benchFloor = async (ctx: { base: string; tokens: string[]; adminToken: string; figures: TFigure[]; seconds: number; serverPid?: number }) => {
  const { base, tokens, figures, seconds, serverPid: pid } = ctx;
  await assertFloorRoute(base);
  const rounds = Math.max(1, Number(process.env.BENCH_FLOOR_ROUNDS ?? 3));
  // The buy: 1 to 10 coins on one of 20 markets of its own (deep liquidity, so prices barely move).
  const marketIds = await createFloorMarkets(base, ctx.adminToken);
  const buy: TRequestFor = (i) => ({
    path: `/api/markets/predictions/${marketIds[i % marketIds.length]}/buy`,
    method: 'POST',
    body: JSON.stringify({ outcome: i % 3 ? 'YES' : 'NO', amount: 1 + (i % 10) }),
  });
  const all: { name: string; label: string; path: string | TRequestFor; tokens?: string[] }[] = [
    { name: 'empty handler req/s', label: `GET ${FLOOR_PATH}`, path: FLOOR_PATH },
    { name: 'health / floor', label: 'GET /api/health', path: '/api/health', tokens },
    { name: 'users/me / floor', label: 'GET /api/users/me', path: '/api/users/me', tokens },
    { name: 'markets list / floor', label: 'GET /api/markets/predictions?limit=20', path: '/api/markets/predictions?limit=20', tokens },
    { name: 'buy / floor', label: 'POST /api/markets/predictions/{id}/buy', path: buy, tokens },
    // The floor of a write: the empty handler reading a body like the buy's (POST costs Next.js more than GET).
    { name: 'empty POST / floor', label: `POST ${FLOOR_PATH} (reads a buy's body)`, path: (i) => ({ ...buy(i), path: FLOOR_PATH }) },
  ];
  // BENCH_FLOOR_ONLY=buy (a part of a label) keeps the empty handler and the paths it names: to profile one.
  const only = process.env.BENCH_FLOOR_ONLY;
  const paths = all.filter((p, i) => i === 0 || !only || p.label.includes(only));
  console.log(`\nThe framework floor: ${FLOOR_PATH} and the API beside it, ${FLOOR_CONNECTIONS} connections, ${rounds} interleaved rounds of ${seconds}s after a 2 s warm-up each…`);
  for (const p of paths) await measurePath(base, p.path, { seconds: 2, tokens: p.tokens });
  const runs = new Map<string, TRate[]>(paths.map((p) => [p.name, []]));
  for (let round = 1; round <= rounds; round++) {
    console.log(` round ${round}${pid === undefined ? '' : ` (server resident ${rssMb(pid)} MB)`}`);
    for (const p of paths) {
      const r = await measurePath(base, p.path, { seconds, tokens: p.tokens, pid });
      note(p.label, r);
      runs.get(p.name)!.push(r);
    }
  }
  const floorRps = median(runs.get(paths[0]!.name)!.map((r) => r.rps));
  const referenceIs = 'the empty route handler';
  for (const p of paths) {
    const rs = runs.get(p.name)!;
    const cpu = rs.every((r) => r.cpuMsPerRequest !== undefined) ? `, CPU ms/req ${rs.map((r) => r.cpuMsPerRequest!.toFixed(2)).join(' / ')}` : '';
    const pg = rs.every((r) => r.postgresCpuMsPerRequest !== undefined) ? `, PostgreSQL CPU ms/req ${rs.map((r) => r.postgresCpuMsPerRequest!.toFixed(2)).join(' / ')}` : '';
    console.log(`  ${p.label}: median ${median(rs.map((r) => r.rps)).toFixed(1)} req/s${cpu}${pg}`);
    figures.push({ name: p.name, project: median(rs.map((r) => r.rps)), reference: floorRps, unit: 'req/s', higherIsBetter: true, referenceIs });
  }
  // The buy beside the floor of a write too: what our own work leaves of what a POST allows.
  const buyRuns = runs.get('buy / floor');
  const postRuns = runs.get('empty POST / floor');
  if (buyRuns && postRuns) {
    figures.push({
      name: 'buy / empty POST',
      project: median(buyRuns.map((r) => r.rps)),
      reference: median(postRuns.map((r) => r.rps)),
      unit: 'req/s',
      higherIsBetter: true,
      referenceIs: 'the empty route handler reading a POST body',
    });
  }
};
