/**
 * Figure "SSE fan-out": 1,000 subscribers of GET /api/sse/events?channels=feed on the one
 * production server, 100 events written to the outbox directly (the INSERT + pg_notify that
 * emitEvent issues, one transaction each), and the delay from each event's write (the moment its
 * statement is sent; the commit ends that statement) to its arrival at each subscriber: p50 and
 * p99 over 100,000 deliveries.
 * Goal: p99 under 100 ms.
 *
 * Reference, same run, same pacing: the same 100 events NOTIFY'd with their payload straight
 * through postgres.js to 1,000 in-process listeners (no log, no read, no HTTP) — the floor of
 * what LISTEN/NOTIFY delivery costs.
 */
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { percentile, type TFigure } from './figures';

const SUBSCRIBERS = Number(process.env.BENCH_SSE_SUBSCRIBERS ?? 1000);
const EVENTS = 100;
/** Pause between events: a steady stream rather than one burst, as a live feed would be. */
const GAP_MS = 20;


const FRAME_END = Buffer.from('\n\n');
/** jsonb prints `"seq": 7`; the SSE data line carries the stored JSON text as it is. */
const SEQ = Buffer.from('"seq": ');


/** Opens one SSE stream and calls onSeq(seq) for each event frame carrying {"seq": n}. */
const subscribe = (base: string, token: string, agent: http.Agent, onSeq: (seq: number) => void) =>
  new Promise<http.ClientRequest>((resolve, reject) => {
    const req = http.get(
      `${base}/api/sse/events?channels=feed`,
      { agent, headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } },
      (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`SSE answered ${res.statusCode}`));
          res.resume();
          return;
        }
        // Bytes, not strings: the client must not be the bottleneck of 100,000 deliveries.
        let buf: Buffer = Buffer.alloc(0);
        res.on('data', (chunk: Buffer) => {
          buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
          let end: number;
          let from = 0;
          while ((end = buf.indexOf(FRAME_END, from)) >= 0) {
            const at = buf.indexOf(SEQ, from);
            if (at >= 0 && at < end) onSeq(Number.parseInt(buf.toString('latin1', at + SEQ.length, Math.min(end, at + SEQ.length + 12)), 10));
            from = end + 2;
          }
          buf = from < buf.length ? buf.subarray(from) : Buffer.alloc(0);
        });
        res.on('error', () => {});
        resolve(req);
      },
    );
    req.on('error', reject);
  });

export const benchSseFanout = async (ctx: { base: string; sql: postgres.Sql; tokens: string[]; figures: TFigure[]; databaseUrl: string }) => {
  const { base, sql, tokens, figures } = ctx;
  console.log(`\nSSE fan-out: ${SUBSCRIBERS} subscribers, ${EVENTS} events…`);

  // Project: subscribers over HTTP to the server.
  const committedAt = new Map<number, number>();
  const latencies: number[] = [];
  let received = 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const requests: http.ClientRequest[] = [];
  for (let i = 0; i < SUBSCRIBERS; i += 50) {
    const batch = Array.from({ length: Math.min(50, SUBSCRIBERS - i) }, (_, k) =>
      subscribe(base, tokens[(i + k) % tokens.length]!, agent, (seq) => {
        const t0 = committedAt.get(seq);
        if (t0 === undefined) return; // not one of ours
        latencies.push(performance.now() - t0);
        received++;
      }),
    );
    requests.push(...(await Promise.all(batch)));
  }
  for (let i = 0; i < 100; i++) {
    const stats = (await fetch(`${base}/api/sse/stats`).then((r) => r.json())) as { totalClients: number };
    if (stats.totalClients >= SUBSCRIBERS) break;
    await sleep(100);
  }
  for (let seq = 1; seq <= EVENTS; seq++) {
    // Timed from the send: the notification may reach us before the statement's own answer.
    committedAt.set(seq, performance.now());
    // What emitEvent issues, in its own transaction.
    await sql`
      with e as (
        insert into event_log (channel, type, data)
        values ('feed', 'feed_update', ${sql.json({ post: { id: `bench-${seq}`, content: 'SSE benchmark', authorId: 'bench', timestamp: new Date().toISOString() }, seq })})
        returning id
      )
      select pg_notify('playmoney_events', '') from e`;
    await sleep(GAP_MS);
  }
  const expected = SUBSCRIBERS * EVENTS;
  for (let i = 0; i < 100 && received < expected; i++) await sleep(50);
  for (const r of requests) r.destroy();
  agent.destroy();
  if (received < expected) console.log(`  note: ${expected - received} of ${expected} deliveries missing after 5 s`);
  latencies.sort((a, b) => a - b);

  // Reference: the same events NOTIFY'd with their payload to in-process postgres.js listeners.
  const listener = postgres(ctx.databaseUrl, { max: 1, onnotice: () => {} });
  const refSent = new Map<number, number>();
  const refLatencies: number[] = [];
  for (let i = 0; i < SUBSCRIBERS; i++) {
    await listener.listen('bench_sse_reference', (payload) => {
      const seq = Number(/"seq": ?(\d+)/.exec(payload)?.[1]);
      const t0 = refSent.get(seq);
      if (t0 !== undefined) refLatencies.push(performance.now() - t0);
    });
  }
  for (let seq = 1; seq <= EVENTS; seq++) {
    const payload = JSON.stringify({ type: 'feed_update', data: { post: { id: `bench-${seq}`, content: 'SSE benchmark', authorId: 'bench', timestamp: new Date().toISOString() }, seq } });
    refSent.set(seq, performance.now());
    await sql`select pg_notify('bench_sse_reference', ${payload})`;
    await sleep(GAP_MS);
  }
  for (let i = 0; i < 100 && refLatencies.length < expected; i++) await sleep(50);
  await listener.end();
  refLatencies.sort((a, b) => a - b);

  console.log(`  delivered ${received}/${expected}; reference ${refLatencies.length}/${expected}`);
  figures.push({ name: 'SSE fan-out p50', project: percentile(latencies, 50), reference: percentile(refLatencies, 50), unit: 'ms', higherIsBetter: false, referenceIs: 'NOTIFY to listeners' });
  figures.push({ name: 'SSE fan-out p99 (<100)', project: percentile(latencies, 99), reference: percentile(refLatencies, 99), unit: 'ms', higherIsBetter: false, referenceIs: 'NOTIFY to listeners' });
};
