/**
 * A local EVM node for integration tests: anvil from its npm package (@foundry-rs/anvil, a
 * devDependency), on a free port, chain id 31337, mining each transaction at once. Nothing is
 * downloaded. Its dev accounts come from anvil's public test mnemonic ("test test … junk"), so
 * their keys are well known and fine to have here. Call stop() in afterAll: it kills the node's
 * whole process group (the npm wrapper and the binary it starts) and waits for the exit.
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

const ANVIL_BIN = path.resolve(import.meta.dirname, '..', 'node_modules', '.bin', 'anvil');
const START_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 5_000;

/** Anvil's first two dev accounts (0xf39F…2266 and 0x7099…79C8). */
export const ANVIL_PRIVATE_KEYS: `0x${string}`[] = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
];

export type TAnvil = { rpcUrl: string; privateKeys: `0x${string}`[]; stop(): Promise<void> };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

const chainIdAnswers = async (rpcUrl: string) => {
  try {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(1_000),
    });
    return res.ok && (await res.json()).result === '0x7a69';
  } catch {
    return false;
  }
};

export const startAnvil = async (): Promise<TAnvil> => {
  const port = await freePort();
  const rpcUrl = `http://127.0.0.1:${port}`;
  // detached: its own process group, so stop() reaches the binary behind the node wrapper too.
  const child = spawn(ANVIL_BIN, ['--host', '127.0.0.1', '--port', String(port), '--chain-id', '31337', '--accounts', '2', '--quiet'], {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.once('error', () => {}); // a failed spawn leaves child.pid unset, reported below
  if (child.pid === undefined) throw new Error(`could not start ${ANVIL_BIN}`);
  const group = -child.pid;
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  let hasExited = false;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      hasExited = true;
      resolve();
    }),
  );
  /** Signals every process of the node's group; false once none is left. */
  const signalGroup = (signal: NodeJS.Signals | 0) => {
    try {
      process.kill(group, signal);
      return true;
    } catch {
      return false;
    }
  };
  // Last resort when the test process ends without stop() (a crash): never leave a node behind.
  const onExit = () => signalGroup('SIGKILL');
  process.once('exit', onExit);

  const stop = async () => {
    process.off('exit', onExit);
    signalGroup('SIGTERM');
    // The wrapper exits as soon as it has passed the signal on; wait for the binary as well.
    const deadline = Date.now() + STOP_TIMEOUT_MS;
    while (signalGroup(0)) {
      if (Date.now() > deadline) {
        signalGroup('SIGKILL');
        break;
      }
      await sleep(50);
    }
    await exited;
  };

  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await chainIdAnswers(rpcUrl))) {
    if (hasExited || Date.now() > deadline) {
      await stop();
      throw new Error(`anvil did not start on ${rpcUrl}${stderr ? `: ${stderr.trim()}` : ''}`);
    }
    await sleep(100);
  }
  return { rpcUrl, privateKeys: ANVIL_PRIVATE_KEYS, stop };
};
