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
 * and the markets list (GET /api/markets/predictions, 20 a page), each printed as a figure whose
 * reference is the empty handler. The reads rotate the run's tokens: anonymous calls all come
 * from one address and would measure the public rate limit's 429 instead.
 * On a loaded machine req/s swings from second to second; the server's CPU time per request
 * (/proc/<pid>/stat before and after) is the steadier measure (docs/SCALING.md).
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { TFigure } from './figures';

export const FLOOR_PATH = '/api/bench/empty';
export const FLOOR_CONNECTIONS = 32;

export type TRate = { rps: number; p50: number; p99: number; non2xx: number; errors: number; cpuMsPerRequest?: number };

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

/** autocannon on one path; with `pid` (a one-process server), also the server's CPU ms per request. */
export const measurePath = async (base: string, path: string, opts: { seconds: number; connections?: number; tokens?: string[]; pid?: number }): Promise<TRate> => {
  let next = 0;
  const cpu0 = cpuMs(opts.pid);
  const tokens = opts.tokens ?? [];
  const result = await autocannon({
    url: base,
    connections: opts.connections ?? FLOOR_CONNECTIONS,
    duration: opts.seconds,
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          path,
          headers: tokens.length ? { ...req.headers, authorization: `Bearer ${tokens[next++ % tokens.length]}` } : req.headers,
        }),
      },
    ],
  });
  const cpu1 = cpuMs(opts.pid);
  const cpuMsPerRequest = cpu0 !== undefined && cpu1 !== undefined && result.requests.total > 0 ? (cpu1 - cpu0) / result.requests.total : undefined;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors, cpuMsPerRequest };
};

/** Refuses a server that was not started with BENCH_EMPTY_ROUTE=1 (the handler answers 404 there). */
export const assertFloorRoute = async (base: string) => {
  const res = await fetch(`${base}${FLOOR_PATH}`);
  const body = await res.text();
  if (res.status !== 200 || body !== '{}') throw new Error(`${FLOOR_PATH} answered ${res.status} ${body.slice(0, 200)}: start the server with BENCH_EMPTY_ROUTE=1`);
};

const note = (name: string, r: TRate) => {
  const cpu = r.cpuMsPerRequest === undefined ? '' : `, ${r.cpuMsPerRequest.toFixed(2)} CPU ms/req`;
  console.log(`  ${name}: ${r.rps.toFixed(1)} req/s (p50 ${r.p50} ms, p99 ${r.p99} ms${cpu})${r.non2xx || r.errors ? `; ${r.non2xx} non-2xx, ${r.errors} errors` : ''}`);
};

/** `serverPid`: the server's process when it runs one worker (WEB_CONCURRENCY=1), for CPU ms per request. */
export const benchFloor = async (ctx: { base: string; tokens: string[]; figures: TFigure[]; seconds: number; serverPid?: number }) => {
  const { base, tokens, figures, seconds, serverPid: pid } = ctx;
  await assertFloorRoute(base);
  console.log(`\nThe framework floor: ${FLOOR_PATH} and API reads beside it, ${FLOOR_CONNECTIONS} connections, ${seconds}s each…`);
  const floor = await measurePath(base, FLOOR_PATH, { seconds, pid });
  note('empty handler', floor);
  const referenceIs = 'the empty route handler';
  figures.push({ name: 'empty handler req/s', project: floor.rps, reference: floor.rps, unit: 'req/s', higherIsBetter: true, referenceIs });
  const reads: [string, string, string[] | undefined][] = [
    ['health / floor', '/api/health', tokens],
    ['users/me / floor', '/api/users/me', tokens],
    ['markets list / floor', '/api/markets/predictions?limit=20', tokens],
  ];
  for (const [name, path, withTokens] of reads) {
    const r = await measurePath(base, path, { seconds, tokens: withTokens, pid });
    note(path, r);
    figures.push({ name, project: r.rps, reference: floor.rps, unit: 'req/s', higherIsBetter: true, referenceIs });
  }
};
