// The HTTP server behind `npm run dev` and `npm start`: Next.js with two additions, both in
// lib/http/node-guard.mjs. Before Next sees a request, the socket address is written into
// X-Client-Socket-Address (route handlers cannot see the socket, and Next keeps a client-sent
// X-Forwarded-For, so anonymous rate limits could be dodged by inventing addresses), and an /api
// request whose path or query does not decode is handed to the API's JSON 400 instead of Next's
// plain-text 500. And what Node's own parser refuses (headers over 16 KB: 431, a request line
// too long: 414, not HTTP: 400) is answered in the API's JSON error envelope, not a bare status.
//
// Every core: in production the process is a node:cluster primary that runs WEB_CONCURRENCY
// workers (default: os.availableParallelism()), each a whole server (Next.js, its boot: migrations,
// the in-process tick timer, the SSE listener) sharing the port and nothing else but the database
// and Redis: the same as that many instances (test/ops/instances.test.ts). The embedded database
// (no DATABASE_URL: PGlite, one process per data directory) and development run one process. A
// worker that dies is replaced; one that dies before it listens (a refused environment, a failed
// migration) stops the whole server with its exit code. SIGTERM/SIGINT to the primary stops every
// worker through its own signal handler below, so each worker's exit hooks run.
import cluster from 'node:cluster';
import { createServer } from 'node:http';
import os from 'node:os';
import { answerClientError, guardRequest } from './lib/http/node-guard.mjs';

const dev = process.argv.includes('--dev');
process.env.NEXT_TELEMETRY_DISABLED = '1';
// Set before Next.js loads: it reads NODE_ENV when its modules are evaluated.
process.env.NODE_ENV ??= dev ? 'development' : 'production';
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOSTNAME ?? '0.0.0.0';

/** How many workers to run, and why when it is not what was asked. */
const workerPlan = () => {
  const asked = process.env.WEB_CONCURRENCY?.trim() ? Number(process.env.WEB_CONCURRENCY) : os.availableParallelism();
  const wanted = Number.isInteger(asked) && asked > 0 ? asked : os.availableParallelism();
  if (dev) return { count: 1 };
  // As lib/env.ts reads it: blank is unset.
  if (!process.env.DATABASE_URL?.trim()) {
    return { count: 1, why: wanted > 1 ? `one worker, not ${wanted}: the embedded database (no DATABASE_URL) opens in one process only` : undefined };
  }
  return { count: wanted };
};

/** The primary: forks, replaces and stops the workers; it never loads Next.js. */
const runPrimary = (count) => {
  const redis = process.env.REDIS_URL?.trim() || process.env.UPSTASH_REDIS_REST_URL?.trim();
  console.log(`> ${count} workers (WEB_CONCURRENCY=${process.env.WEB_CONCURRENCY ?? `unset, ${os.availableParallelism()} cores`})${redis ? '' : '; no Redis: rate limits count per worker'}`);
  let stopping = false;
  const listened = new Set();
  const fork = () => {
    const worker = cluster.fork();
    worker.once('listening', () => listened.add(worker.id));
  };
  cluster.on('exit', (worker, code, signal) => {
    const how = signal ?? `code ${code}`;
    if (stopping) return;
    if (!listened.has(worker.id)) {
      // It never served: a replacement would fail the same way. Stop the rest, keep its code.
      console.error(`> worker ${worker.process.pid} exited (${how}) before it listened; stopping`);
      stop(code || 1);
      return;
    }
    listened.delete(worker.id);
    console.error(`> worker ${worker.process.pid} exited (${how}); starting a replacement`);
    // A moment later, so that a Ctrl-C (SIGINT to the whole process group, workers first) is a stop.
    setTimeout(() => stopping || fork(), 250);
  });
  const stop = (exitCode) => {
    if (stopping) return;
    stopping = true;
    const alive = Object.values(cluster.workers ?? {}).filter((w) => w && !w.isDead());
    if (alive.length === 0) process.exit(exitCode);
    let left = alive.length;
    for (const w of alive) {
      w.process.once('exit', () => {
        if (--left === 0) process.exit(exitCode);
      });
      // The worker's own handler (below) closes its server and exits through process.exit.
      w.process.kill('SIGTERM');
    }
    setTimeout(() => {
      for (const w of alive) if (!w.isDead()) w.process.kill('SIGKILL');
      process.exit(exitCode);
    }, 10_000).unref();
  };
  for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => stop(0));
  for (let i = 0; i < count; i++) fork();
};

/** One server: Next.js behind the node guard (the only process, or one cluster worker). */
const serve = async () => {
  const { default: next } = await import('next');
  const app = next({ dev, port, hostname: hostname === '0.0.0.0' ? 'localhost' : hostname });
  const handle = app.getRequestHandler();
  await app.prepare();

  const server = createServer((req, res) => {
    guardRequest(req);
    handle(req, res);
  })
    .on('clientError', (err, socket) => answerClientError(err, socket))
    .listen(port, hostname, () => {
      const who = cluster.isWorker ? ` (worker ${process.pid})` : '';
      console.log(`> ${dev ? 'Development' : 'Production'} server on http://localhost:${port}${who}`);
    });

  // A stop signal ends the process through process.exit, so exit hooks run (the embedded
  // database's lock file is released; a --cpu-prof profile is written).
  for (const signal of ['SIGTERM', 'SIGINT']) {
    process.once(signal, () => {
      server.close();
      process.exit(0);
    });
  }
};

if (cluster.isPrimary) {
  const plan = workerPlan();
  if (plan.why) console.log(`> ${plan.why}`);
  if (plan.count > 1) runPrimary(plan.count);
  else await serve();
} else {
  await serve();
}
