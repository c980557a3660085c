/**
 * Production servers for the operations suite (test/ops) and the soak (scripts/soak.ts): a
 * throwaway PostgreSQL database, `node server.mjs` from a built tree started with the production
 * environment and awaited on /api/health, and tokens minted for it. Why a separate process and not
 * route handlers: what is under test here (counters shared through Redis, SSE fan-out through
 * LISTEN, the tick's cross-instance lock) only exists between processes.
 *
 * The built tree is OPS_APP_DIR (default: the working directory); it must hold a production build
 * (`.next/BUILD_ID`, which CI's e2e step leaves behind). PostgreSQL is OPS_PG_URL (default the
 * local server). Every process started here is killed when the calling process exits.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SignJWT } from 'jose';
import postgres from 'postgres';

// A production server refuses secrets under 32 bytes and two equal ones (lib/env.ts).
export const OPS_JWT_SECRET = 'ops-secret-for-the-operations-suite';
export const OPS_CRON_SECRET = 'ops-cron-secret-for-the-operations-suite';
export const OPS_SESSION_SECRET = 'ops-session-secret-for-the-operations-suite';
export const pgBaseUrl = () => process.env.OPS_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const redisUrl = () => process.env.OPS_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The built tree servers run from; refuses a tree without a production build. */
export const appDir = () => {
  const dir = path.resolve(process.env.OPS_APP_DIR ?? process.cwd());
  if (!existsSync(path.join(dir, '.next', 'BUILD_ID'))) {
    throw new Error(`no production build in ${dir} (run \`npm run build\` there, or set OPS_APP_DIR to a built tree)`);
  }
  return dir;
};

const withDatabase = (baseUrl: string, name: string) => {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/** A fresh, empty database on the test server (the first server start migrates and seeds it). */
export const createDatabase = async (label: string) => {
  const name = `pm_ops_${label}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const sql = postgres(pgBaseUrl(), { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`create database ${name}`);
  } finally {
    await sql.end();
  }
  return { name, url: withDatabase(pgBaseUrl(), name) };
};

/** Drops a database this suite created (its servers must be stopped; `with (force)` ends stragglers). */
export const dropDatabase = async (name: string) => {
  if (!/^pm_ops_/.test(name)) throw new Error(`refusing to drop ${name}: not an ops database`);
  const sql = postgres(pgBaseUrl(), { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`drop database if exists ${name} with (force)`);
  } finally {
    await sql.end();
  }
};

export type TServer = {
  base: string;
  port: number;
  proc: ChildProcess;
  /** The last lines the process printed (for failure messages). */
  logs: () => string;
  stop: () => Promise<void>;
};

const running = new Set<ChildProcess>();
let exitHookInstalled = false;
const installExitHook = () => {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const p of running) p.kill('SIGKILL');
  });
};

/** Waits for `${base}/api/health` to answer 200, or throws after `timeoutMs` or when the process dies. */
export const waitForHealth = async (base: string, proc: ChildProcess, timeoutMs: number, logs: () => string) => {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`server on ${base} exited (${proc.exitCode ?? proc.signalCode}):\n${logs()}`);
    const ok = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(5_000) })
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await sleep(300);
  }
  throw new Error(`server on ${base} not healthy within ${timeoutMs} ms:\n${logs()}`);
};

/**
 * Starts `node server.mjs` in production mode on `port` with the suite's secrets, no in-process
 * scheduler, the test clock allowed and one process (WEB_CONCURRENCY=1); `env` adds to (or overrides) that, and a key set to
 * undefined removes a default (the security suite runs without the test clock). Resolves once healthy.
 */
export const startServer = async (opts: { port: number; env: Record<string, string | undefined>; label?: string; timeoutMs?: number }): Promise<TServer> => {
  installExitHook();
  const dir = appDir();
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) if (line.trim()) lines.push(`[${opts.label ?? opts.port}] ${line}`);
    if (lines.length > 2000) lines.splice(0, lines.length - 2000);
  };
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    PORT: String(opts.port),
    HOSTNAME: '127.0.0.1',
    AUTH_JWT_SECRET: OPS_JWT_SECRET,
    CRON_SECRET: OPS_CRON_SECRET,
    SESSION_SECRET: OPS_SESSION_SECRET,
    LOCAL_SCHEDULER: '0',
    ALLOW_TEST_CLOCK: '1',
    DATA_DIR: path.join(dir, `.data-ops-${opts.port}`),
    // One process, as these suites count on (in-memory rate limits without Redis, kill -9 of
    // `proc`); a test of server.mjs's workers sets WEB_CONCURRENCY itself.
    WEB_CONCURRENCY: '1',
    ...opts.env,
  };
  const proc = spawn(process.execPath, ['server.mjs'], {
    cwd: dir,
    env: Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(proc);
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  proc.once('exit', () => running.delete(proc));
  const base = `http://127.0.0.1:${opts.port}`;
  const logs = () => lines.join('\n');
  const stop = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill('SIGTERM');
    const killed = await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]);
    if (!killed) {
      proc.kill('SIGKILL');
      await exited;
    }
  };
  try {
    await waitForHealth(base, proc, opts.timeoutMs ?? 240_000, logs);
  } catch (e) {
    await stop();
    throw e;
  }
  return { base, port: opts.port, proc, logs, stop };
};

/**
 * The live worker processes of a server started with WEB_CONCURRENCY > 1 (server.mjs runs them
 * under node:cluster; each logs "(worker <pid>)" once it listens), oldest first.
 */
export const workerPids = (server: TServer): number[] => {
  const pids = [...server.logs().matchAll(/\(worker (\d+)\)/g)].map((m) => Number(m[1]));
  return [...new Set(pids)].filter((pid) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  });
};

/** An HS256 bearer token for a subject, as the servers started here verify them. */
export const opsToken = (subject: string, claims: Record<string, unknown> = {}) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(subject)
    .setIssuedAt()
    .setExpirationTime('6h')
    .sign(new TextEncoder().encode(process.env.SOAK_JWT_SECRET ?? OPS_JWT_SECRET));

export type TJsonResponse<T = any> = { status: number; body: T; headers: Headers };

/** A JSON request: the parsed body (or the text when it is not JSON), the status and the headers. */
export const requestJson = async <T = any>(
  url: string,
  init: { method?: string; token?: string; body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<TJsonResponse<T>> => {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: AbortSignal.timeout(init.timeoutMs ?? 60_000),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: body as T, headers: res.headers };
};
