/**
 * Figure "hostile load": GET /api/health latency (p50, p99) while 8 clients send maximum-size
 * invalid bodies to write routes, beside the same figure with no hostile load (same run, same
 * probes), as a ratio. Goal: health p99 within 2x of quiet.
 *
 * Health is probed by one client back to back (BENCH_HEALTH_CONNECTIONS to change), like a monitor
 * that sends its next check when the last is answered: the probes add no queue of their own, so
 * the hostile phase measures how long a health check waits behind the hostile clients' work. (A
 * fixed probe rate instead turns into an unbounded queue as soon as the hostile clients take the
 * server's capacity, which measures the rate chosen rather than the server.) The probes carry
 * the benchmark users' tokens, which puts them under the per-user budget instead of the
 * per-address public one (100/min).
 *
 * Hostile clients: 8 loops, one keep-alive connection each, back to back, each with its own
 * user's valid bearer token (so their rate-limit counters are not the probes'), POSTing to
 * /api/posts, /api/markets/predictions/{id}/buy and /api/markets/perps/open bodies of 64 KiB
 * minus a little that no route accepts (a post far over its length in plain, emoji, combining and
 * hashtag text; control characters; nesting far past the depth limit; a wide array; a string where
 * an enum or a number belongs; a number with 65,000 digits), and every fifth time a 70 KiB body,
 * just over the limit. Every answer must be a 4xx; the counts per route and status are printed.
 *
 * Two hostile phases. The figure with the goal: 8 clients, one identity each, as attackers are;
 * the bad-input budget (lib/operations/rate-limit.ts) puts each in the penalty box after 60 refusals
 * in a minute, and from then on each request waits a second and is refused unread. Then, for
 * the record, the same clients rotating over 400 identities, none of which reaches its budget
 * within the phase: what raw validation costs when nothing can tell the attackers apart (a
 * botnet), which only a limit in front of the service (per address, at the proxy) can bound.
 */
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { percentile, type TFigure } from './figures';

const HOSTILE_CLIENTS = 8;
/** The second phase's identities: enough that none reaches its bad-input budget within the phase. */
const ROTATING_USERS = 400;
const HEALTH_CONNECTIONS = Number(process.env.BENCH_HEALTH_CONNECTIONS ?? 1);
/** The API's JSON body limit (lib/http/limits.ts DEFAULT_JSON_BODY_LIMIT). */
const BODY_LIMIT = 64 * 1024;
const NEAR_LIMIT = BODY_LIMIT - 64;
const OVER_LIMIT = 70 * 1024;

/**
 * JSON text of exactly `bytes` UTF-8 bytes: `head`, then `unit` repeated while it fits, then
 * `tail`, padded with spaces (JSON whitespace) to the size.
 */
const sized = (bytes: number, head: string, unit: string, tail: string) => {
  const fixed = Buffer.byteLength(head) + Buffer.byteLength(tail);
  const n = Math.floor((bytes - fixed) / Buffer.byteLength(unit));
  const text = head + unit.repeat(n) + tail;
  return Buffer.from(text + ' '.repeat(bytes - Buffer.byteLength(text)));
};

type TBody = { route: string; path: string; body: Buffer };

const hostileBodies = (marketId: string): TBody[] => {
  const post = (body: Buffer) => ({ route: 'POST /api/posts', path: '/api/posts', body });
  const buy = (body: Buffer) => ({ route: 'POST …/predictions/{id}/buy', path: `/api/markets/predictions/${marketId}/buy`, body });
  const perp = (body: Buffer) => ({ route: 'POST /api/markets/perps/open', path: '/api/markets/perps/open', body });
  const nested = (size: number) => {
    const half = Math.floor(size / 2);
    return Buffer.from('['.repeat(half) + ']'.repeat(size - half));
  };
  return [
    post(sized(NEAR_LIMIT, '{"content":"', 'a', '"}')),
    post(sized(NEAR_LIMIT, '{"content":"', '\u{1F44D}\u{1F3FD}', '"}')), // thumbs up, skin tone: 8 bytes, one grapheme
    post(sized(NEAR_LIMIT, '{"content":"', 'e\u0301', '"}')), // combining accents
    post(sized(NEAR_LIMIT, '{"content":"', '#tag @someone https://example.com/x ', '"}')),
    post(sized(NEAR_LIMIT, '{"content":"', 'x\\u0000', '"}')), // NUL characters
    post(nested(NEAR_LIMIT)),
    post(sized(NEAR_LIMIT, '{"content":12345,"junk":[', '0,', '0]}')), // wide, and content not a string
    post(sized(OVER_LIMIT, '{"content":"', 'a', '"}')),
    buy(sized(NEAR_LIMIT, '{"amount":10,"outcome":"', 'Y', '"}')),
    buy(sized(NEAR_LIMIT, '{"outcome":"YES","amount":', '9', '}')), // 65,000 digits: Infinity
    buy(nested(NEAR_LIMIT)),
    buy(sized(OVER_LIMIT, '{"amount":10,"outcome":"', 'Y', '"}')),
    perp(sized(NEAR_LIMIT, '{"side":"long","size":100,"leverage":5,"ticker":"', 'N', '"}')),
    perp(sized(NEAR_LIMIT, '{"ticker":"NEXA","side":"long","leverage":5,"size":[', '1,', '1]}')),
    perp(nested(NEAR_LIMIT)),
    perp(sized(OVER_LIMIT, '{"side":"long","size":100,"leverage":5,"ticker":"', 'N', '"}')),
  ];
};


/**
 * GET /api/health back to back from HEALTH_CONNECTIONS keep-alive connections (each sends its
 * next probe when the last one is answered) for `seconds`: the latency of each probe.
 */
const probeHealth = async (base: URL, tokens: string[], seconds: number) => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: HEALTH_CONNECTIONS });
  const latencies: number[] = [];
  let failed = 0;
  let n = 0;
  const deadline = performance.now() + seconds * 1000;
  const probe = (token: string) =>
    new Promise<void>((resolve) => {
      const t0 = performance.now();
      const req = http.get({ host: base.hostname, port: base.port, path: '/api/health', agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
        res.resume();
        res.on('end', () => {
          latencies.push(performance.now() - t0);
          if (res.statusCode !== 200) failed++;
          resolve();
        });
      });
      req.on('error', () => {
        failed++;
        resolve();
      });
    });
  await Promise.all(
    Array.from({ length: HEALTH_CONNECTIONS }, async () => {
      while (performance.now() < deadline) await probe(tokens[n++ % tokens.length]!);
    }),
  );
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { count: latencies.length + failed, failed, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
};

/**
 * The hostile clients, in a worker thread so their callbacks never delay the probes' event loop
 * (plain JavaScript: the worker does not go through tsx). Each client is one keep-alive
 * connection sending back to back; a server that answers 413 and closes before reading the rest
 * still counts as answered.
 */
const HOSTILE_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { host, port, bodies, tokens, clients, perClient } = workerData;
let stop = false;
let sent = 0;
let sentAtMark = 0;
parentPort.on('message', (m) => {
  if (m === 'mark') sentAtMark = sent;
  if (m === 'stop') stop = true;
});
const counts = {};
const send = (agent, b, token) => new Promise((resolve) => {
  let answered = false;
  const req = http.request({ host, port, method: 'POST', path: b.path, agent,
    headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json', 'content-length': b.body.byteLength } }, (res) => {
    answered = true;
    res.resume();
    res.on('end', () => resolve(String(res.statusCode)));
    res.on('error', () => resolve(String(res.statusCode)));
  });
  req.on('error', (e) => { if (!answered) resolve('no answer (' + (e.code || e.message) + ')'); });
  req.end(b.body);
});
Promise.all(Array.from({ length: clients }, async (_, c) => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  for (let i = c; !stop; i += clients) {
    const b = bodies[i % bodies.length];
    const status = await send(agent, b, perClient ? tokens[c % tokens.length] : tokens[sent % tokens.length]);
    sent++;
    const byStatus = (counts[b.route] ??= {});
    byStatus[status] = (byStatus[status] ?? 0) + 1;
  }
  agent.destroy();
})).then(() => parentPort.postMessage({ counts, sent, sentAtMark }));
`;

type TPhase = { loaded: Awaited<ReturnType<typeof probeHealth>>; counts: Record<string, Record<string, number>>; sent: number; rate: number };

/** Health probed for `seconds` while the hostile clients run with `tokens` (one per client, or rotating). */
const hostilePhase = async (url: URL, probeTokens: string[], bodies: TBody[], tokens: string[], perClient: boolean, seconds: number): Promise<TPhase> => {
  const worker = new Worker(HOSTILE_WORKER, {
    eval: true,
    workerData: { host: url.hostname, port: url.port, bodies, tokens, clients: HOSTILE_CLIENTS, perClient },
  });
  const report = new Promise<{ counts: Record<string, Record<string, number>>; sent: number; sentAtMark: number }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  // Let the hostile clients reach their pace before the probes start.
  await sleep(1000);
  worker.postMessage('mark');
  const t0 = performance.now();
  const loaded = await probeHealth(url, probeTokens, seconds);
  const probedMs = performance.now() - t0;
  worker.postMessage('stop');
  const { counts, sent, sentAtMark } = await report;
  await worker.terminate();
  return { loaded, counts, sent, rate: ((sent - sentAtMark) * 1000) / probedMs };
};

const printPhase = (label: string, p: TPhase) => {
  console.log(`  health ${label}: ${p.loaded.count} probes, p50 ${p.loaded.p50.toFixed(2)} ms, p99 ${p.loaded.p99.toFixed(2)} ms`);
  if (p.loaded.failed > 0) console.log(`  note: ${p.loaded.failed} health probes did not answer 200`);
  console.log(`  hostile clients: ${p.sent} requests, ${p.rate.toFixed(0)}/s while probed; answers:`);
  let bad = 0;
  for (const [route, byStatus] of Object.entries(p.counts)) {
    const line = Object.entries(byStatus).sort(([a], [b]) => a.localeCompare(b)).map(([st, n]) => `${st}: ${n}`).join(', ');
    console.log(`    ${route.padEnd(30)} ${line}`);
    for (const [st, n] of Object.entries(byStatus)) if (!/^4\d\d$/.test(st)) bad += n;
  }
  if (bad > 0) console.log(`  note: ${bad} hostile requests were NOT answered with a 4xx`);
};

export const benchHostileLoad = async (ctx: { base: string; tokens: string[]; figures: TFigure[]; token: (sub: string) => Promise<string> }) => {
  const { base, tokens, figures, token } = ctx;
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  console.log(`\nHostile load: GET /api/health from ${HEALTH_CONNECTIONS} client(s) back to back, quiet and then beside ${HOSTILE_CLIENTS} clients sending ~64 KiB invalid bodies, ${seconds}s each…`);

  // The hostile clients' own users (provisioned on first sight) and a market to aim buys at.
  const hostileTokens = await Promise.all(Array.from({ length: ROTATING_USERS }, (_, i) => token(`hostile|${i}`)));
  for (let i = 0; i < ROTATING_USERS; i += 20) {
    await Promise.all(hostileTokens.slice(i, i + 20).map((t) => fetch(`${base}/api/users/me`, { headers: { authorization: `Bearer ${t}` } })));
  }
  const res = await fetch(`${base}/api/admin/markets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await token('bench|admin')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'Will the hostile clients get anything but a 4xx?', resolutionDate: new Date(Date.now() + 30 * 86_400_000).toISOString() }),
  });
  const marketId = ((await res.json()) as { market?: { id: string } }).market?.id;
  if (!marketId) throw new Error(`could not create a market (${res.status})`);
  const bodies = hostileBodies(marketId);
  for (const b of bodies) if (b.body.byteLength !== NEAR_LIMIT && b.body.byteLength !== OVER_LIMIT) throw new Error(`body of ${b.body.byteLength} bytes`);

  const url = new URL(base);
  await probeHealth(url, tokens, 1); // warm-up, not counted
  const quiet = await probeHealth(url, tokens, seconds);
  console.log(`  health quiet: ${quiet.count} probes, p50 ${quiet.p50.toFixed(2)} ms, p99 ${quiet.p99.toFixed(2)} ms`);

  const perClient = await hostilePhase(url, tokens, bodies, hostileTokens.slice(0, HOSTILE_CLIENTS), true, seconds);
  printPhase(`hostile (${HOSTILE_CLIENTS} clients, one identity each)`, perClient);
  const rotating = await hostilePhase(url, tokens, bodies, hostileTokens.slice(HOSTILE_CLIENTS), false, seconds);
  printPhase(`hostile (${HOSTILE_CLIENTS} clients over ${ROTATING_USERS - HOSTILE_CLIENTS} identities, no budget reached)`, rotating);

  figures.push({ name: 'health p50 hostile', project: perClient.loaded.p50, reference: quiet.p50, unit: 'ms', higherIsBetter: false, referenceIs: 'no hostile load' });
  figures.push({ name: 'health p99 hostile (<2x)', project: perClient.loaded.p99, reference: quiet.p99, unit: 'ms', higherIsBetter: false, referenceIs: 'no hostile load' });
  figures.push({ name: 'health p99, 392 ids', project: rotating.loaded.p99, reference: quiet.p99, unit: 'ms', higherIsBetter: false, referenceIs: 'no hostile load' });
};
