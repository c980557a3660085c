/**
 * Throwaway infrastructure for the fault tests (test/ops/faults.test.ts), which must stop,
 * restart and kill things that the machine's shared PostgreSQL (5432) and Redis (6379) must never
 * suffer: a PostgreSQL cluster of its own (initdb + pg_ctl from PG_BIN, trust auth, a free port, a
 * temp directory; run as the `postgres` user when we are root, since PostgreSQL refuses to run as
 * root) and a redis-server of its own (no persistence, a free port). Both can be restarted on the
 * same port and are removed by `stop()`. Server processes themselves come from ./servers.ts
 * (H3b's startServer); `killHard` is the kill -9 of one.
 * Reusable by the other ops tests: import what you need; nothing here touches the shared services.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import postgres from 'postgres';

const run = promisify(execFile);

/** Where initdb and pg_ctl live (Debian's layout; override with PG_BIN). */
export const pgBin = () => process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** A TCP port nobody listens on now (the OS picks it). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Runs a PostgreSQL tool, as the postgres user when we are root. */
const pgTool = async (tool: string, args: string[], timeoutMs = 60_000) => {
  const bin = path.join(pgBin(), tool);
  const [cmd, argv] = isRoot() ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  return run(cmd, argv, { timeout: timeoutMs, env: { ...process.env, LC_ALL: 'C' } });
};

export type TPgCluster = {
  port: number;
  dir: string;
  /** postgres://postgres@127.0.0.1:<port>/<database> */
  url: (database?: string) => string;
  createDatabase: (name: string) => Promise<string>;
  /** `pg_ctl restart -m fast`: every connection is terminated, the server is back when this resolves. */
  restart: () => Promise<void>;
  /** Runs one statement as the superuser (a short-lived connection). */
  sql: <T extends object = Record<string, unknown>>(text: string) => Promise<T[]>;
  stop: () => Promise<void>;
};

/** initdb + start on a free port in a temp dir; `stop()` stops it (immediate) and removes the dir. */
export const startPgCluster = async (): Promise<TPgCluster> => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pm-ops-pg-'));
  const data = path.join(dir, 'data');
  if (isRoot()) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
    chmodSync(dir, 0o700);
  }
  const port = await freePort();
  await pgTool('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-instructions']);
  // Small and fast: a throwaway cluster needs no durability beyond surviving a clean restart.
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=100`;
  const log = path.join(dir, 'log');
  await pgTool('pg_ctl', ['-D', data, '-l', log, '-o', opts, '-w', '-t', '60', 'start']);
  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const sql = async <T extends object>(text: string) => {
    const c = postgres(url(), { max: 1, onnotice: () => {}, connect_timeout: 10 });
    try {
      return (await c.unsafe(text)) as unknown as T[];
    } finally {
      await c.end({ timeout: 1 });
    }
  };
  let stopped = false;
  // Should the test process end without stop() (a crash, a timeout), the cluster goes with it.
  const onExitStop = () => {
    if (stopped) return;
    stopped = true;
    const bin = path.join(pgBin(), 'pg_ctl');
    const args = ['-D', data, '-m', 'immediate', '-w', '-t', '30', 'stop'];
    try {
      if (isRoot()) execFileSync('runuser', ['-u', 'postgres', '--', bin, ...args], { stdio: 'ignore' });
      else execFileSync(bin, args, { stdio: 'ignore' });
    } catch {
      /* already stopped */
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', onExitStop);
  return {
    port,
    dir,
    url,
    sql,
    createDatabase: async (name) => {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad database name ${name}`);
      await sql(`create database ${name}`);
      return url(name);
    },
    restart: async () => {
      await pgTool('pg_ctl', ['-D', data, '-l', log, '-o', opts, '-m', 'fast', '-w', '-t', '60', 'restart']);
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      process.off('exit', onExitStop);
      await pgTool('pg_ctl', ['-D', data, '-m', 'immediate', '-w', '-t', '30', 'stop']).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

export type TRedis = {
  port: number;
  url: string;
  /** Stops the server (SIGKILL: as abrupt as a crash); `start()` brings it back on the same port, empty. */
  kill: () => Promise<void>;
  start: () => Promise<void>;
  stop: () => Promise<void>;
};

/** A redis-server of our own on a free port, no persistence. */
export const startRedis = async (): Promise<TRedis> => {
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pm-ops-redis-'));
  let proc: ChildProcess | undefined;
  const up = async () => {
    for (let i = 0; i < 100; i++) {
      const ok = await new Promise<boolean>((resolve) => {
        const s = net.connect(port, '127.0.0.1', () => {
          s.end();
          resolve(true);
        });
        s.once('error', () => resolve(false));
      });
      if (ok) return;
      await sleep(50);
    }
    throw new Error(`redis-server on ${port} did not start`);
  };
  const start = async () => {
    proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
    onExit(proc);
    await up();
  };
  const kill = async () => {
    const p = proc;
    proc = undefined;
    if (!p || p.exitCode !== null || p.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => p.once('exit', () => resolve()));
    p.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill,
    start,
    stop: async () => {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

/** kill -9 of a process, resolved once it is gone. */
export const killHard = async (proc: ChildProcess) => {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  proc.kill('SIGKILL');
  await exited;
};

const children = new Set<ChildProcess>();
let hooked = false;
/** Children started here die with the test process, whatever happens to it. */
const onExit = (p: ChildProcess) => {
  children.add(p);
  p.once('exit', () => children.delete(p));
  if (hooked) return;
  hooked = true;
  process.once('exit', () => {
    for (const c of children) c.kill('SIGKILL');
  });
};
