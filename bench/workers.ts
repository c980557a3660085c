/**
 * Figure "workers" (every core, server.mjs): the same build started twice on the run's database,
 * once with WEB_CONCURRENCY=1 and once with one worker per core (os.availableParallelism()), each
 * driven by autocannon with 32 keep-alive connections for `seconds`: GET /api/users/me (the run's
 * tokens rotated, their users already provisioned) and the empty route handler (bench/floor.ts).
 * Printed: req/s of all workers against one worker (the ratio is the gain from the extra cores;
 * on a 2-core machine autocannon itself takes a share of them), p50 and p99.
 *
 * `env` is the environment the run starts its own server with (DATABASE_URL, secrets, pool size);
 * the servers here listen on `port` and `port + 1` and are stopped before this returns. Not a
 * fixed ratio: on a loaded machine more processes also win a bigger share of the CPU.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { FLOOR_PATH, assertFloorRoute, measurePath, type TRate } from './floor';
import type { TFigure } from './figures';

/** `node server.mjs` in production with `env` (plus BENCH_NODE_ARGS), once /api/health answers. */
export const startBenchServer = async (opts: { port: number; env: Record<string, string> }) => {
  const proc: ChildProcess = spawn('node', [...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean), 'server.mjs'], {
    env: { ...process.env, ...opts.env, NODE_ENV: 'production', PORT: String(opts.port), HOSTNAME: '127.0.0.1', NEXT_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${opts.port}`;
  const stop = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill('SIGTERM');
    await Promise.race([exited, sleep(15_000).then(() => proc.kill('SIGKILL'))]);
  };
  for (let i = 0; ; i++) {
    if (proc.exitCode !== null) throw new Error(`server on ${base} exited (${proc.exitCode})`);
    if (await fetch(`${base}/api/health`).then((r) => r.ok).catch(() => false)) break;
    if (i === 240) {
      await stop();
      throw new Error(`server on ${base} did not start`);
    }
    await sleep(500);
  }
  return { base, proc, stop };
};

export const benchWorkers = async (ctx: { env: Record<string, string>; tokens: string[]; figures: TFigure[]; seconds: number; port?: number }) => {
  const { env, tokens, figures, seconds } = ctx;
  const port = ctx.port ?? 3420;
  // All: one per core (BENCH_WORKERS overrides), whatever WEB_CONCURRENCY the run's own server has.
  const all = Number(process.env.BENCH_WORKERS) || os.availableParallelism();
  const measure = async (workers: number, at: number) => {
    console.log(`\nWEB_CONCURRENCY=${workers}: GET /api/users/me and ${FLOOR_PATH}, 32 connections, ${seconds}s each…`);
    const server = await startBenchServer({ port: at, env: { ...env, WEB_CONCURRENCY: String(workers), BENCH_EMPTY_ROUTE: '1' } });
    try {
      await assertFloorRoute(server.base);
      // Every worker warm (its first requests compile and fill caches) before the count starts.
      await measurePath(server.base, '/api/users/me', { seconds: 2, tokens });
      // CPU per request only with one process (with more, the requests are the workers').
      const pid = workers === 1 ? server.proc.pid : undefined;
      const me = await measurePath(server.base, '/api/users/me', { seconds, tokens, pid });
      const empty = await measurePath(server.base, FLOOR_PATH, { seconds, pid });
      for (const [name, r] of [['users/me', me], ['empty', empty]] as const) {
        const cpu = r.cpuMsPerRequest === undefined ? '' : `, ${r.cpuMsPerRequest.toFixed(2)} CPU ms/req`;
        console.log(`  ${name}: ${r.rps.toFixed(1)} req/s (p50 ${r.p50} ms, p99 ${r.p99} ms${cpu})${r.non2xx || r.errors ? `; ${r.non2xx} non-2xx, ${r.errors} errors` : ''}`);
      }
      return { me, empty };
    } finally {
      await server.stop();
    }
  };
  const one = await measure(1, port);
  const many = await measure(all, port + 1);
  const referenceIs = 'the same build, one worker';
  const push = (name: string, a: TRate, b: TRate) => {
    figures.push({ name: `${name} req/s`, project: a.rps, reference: b.rps, unit: 'req/s', higherIsBetter: true, referenceIs });
    figures.push({ name: `${name} p99`, project: a.p99, reference: b.p99, unit: 'ms', higherIsBetter: false, referenceIs });
  };
  push(`users/me ${all} workers`, many.me, one.me);
  push(`empty ${all} workers`, many.empty, one.empty);
};
