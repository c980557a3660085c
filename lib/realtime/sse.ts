/**
 * One SSE client: `openEventStream` answers GET /api/sse/events with a text/event-stream body.
 *
 * Protocol: the stream opens with `retry: 3000`; each event is a frame
 * `id: <txId>-<id>` (its outbox position, lib/realtime/position.ts), `event: <type>`,
 * `data: {"type":…,"data":…}`; a `: ping` comment every 15 s keeps proxies from timing out; the
 * server ends the stream after 300 s (the specification's limit) and the browser reconnects,
 * sending the last id it saw as Last-Event-ID.
 *
 * No gap and no duplicate across a reconnect: the client is subscribed to the hub first (live
 * events are held back), then everything after its last id is replayed from the log, then the
 * held events follow, each sent only if it is after the last one sent. The replay covers every
 * event up to the hub's position at subscription, and the hub delivers everything after it.
 *
 * A slow client: frames queue in its own stream; past LIVE_QUEUE_LIMIT queued frames the stream
 * is closed (after the queued frames) and the client reconnects and replays from its last id.
 */
import { getDb } from '@/db/client';
import { addSubscriber, ensureRealtime, toDelivered, type TDeliveredEvent } from './hub';
import { isAfter, type TPosition } from './position';
import { readEventsAfter } from './reader';

type TTimings = { heartbeatMs: number; maxDurationMs: number };
const DEFAULT_TIMINGS: TTimings = { heartbeatMs: 15_000, maxDurationMs: 300_000 };
let timings = DEFAULT_TIMINGS;

/** Test hook: shorter heartbeat and lifetime so tests need no fake clock; no argument resets. */
export const setSseTimings = (t?: Partial<TTimings>) => {
  timings = { ...DEFAULT_TIMINGS, ...t };
};

export const RETRY_MS = 3000;
/** Frames a client may have queued before it counts as too slow and is closed. */
export const LIVE_QUEUE_LIMIT = 1000;
const REPLAY_PAGE = 500;
/** A reconnect replays at most this much; a client further behind continues from a new connection. */
const REPLAY_LIMIT = 10_000;

const encoder = new TextEncoder();
const PING = encoder.encode(': ping\n\n');

export const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  // no-transform keeps Next's compression from buffering the stream.
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};

export const openEventStream = (opts: { channels: readonly string[]; lastEventId: TPosition | null; signal?: AbortSignal }) => {
  const channels = new Set(opts.channels);
  let stop = () => {};

  const stream = new ReadableStream<Uint8Array>(
    {
      start: (controller) => {
        let closed = false;
        let lastSent: TPosition | null = opts.lastEventId;
        // Live events held back while the replay runs.
        let held: TDeliveredEvent[] | null = [];

        let cleanup = () => {};
        const release = () => {
          closed = true;
          cleanup();
        };
        const close = () => {
          if (closed) return;
          release();
          try {
            controller.close();
          } catch {
            /* already closed or cancelled */
          }
        };
        stop = release;
        const send = (e: TDeliveredEvent) => {
          if (closed || !isAfter(e.position, lastSent)) return;
          lastSent = e.position;
          controller.enqueue(e.frame);
        };

        const unsubscribe = addSubscriber({
          channels,
          kind: 'sse',
          deliver: (e) => {
            if (closed) return;
            if (held) {
              held.push(e);
              if (held.length > LIVE_QUEUE_LIMIT) close();
              return;
            }
            // desiredSize = highWaterMark - queued frames: far below zero means the client is not reading.
            if ((controller.desiredSize ?? 0) < -LIVE_QUEUE_LIMIT) {
              close();
              return;
            }
            send(e);
          },
        });
        const heartbeat = setInterval(() => {
          if (!closed) controller.enqueue(PING);
        }, timings.heartbeatMs);
        const lifetime = setTimeout(close, timings.maxDurationMs);
        const onAbort = () => close();
        opts.signal?.addEventListener('abort', onAbort);
        cleanup = () => {
          unsubscribe();
          clearInterval(heartbeat);
          clearTimeout(lifetime);
          opts.signal?.removeEventListener('abort', onAbort);
        };
        if (opts.signal?.aborted) return close();

        controller.enqueue(encoder.encode(`retry: ${RETRY_MS}\n\n`));
        void (async () => {
          try {
            await ensureRealtime();
            if (opts.lastEventId) {
              const db = await getDb();
              let after = opts.lastEventId;
              let complete = false;
              for (let replayed = 0; replayed < REPLAY_LIMIT && !closed; ) {
                const page = await readEventsAfter(db, after, { limit: REPLAY_PAGE, channels: [...channels] });
                for (const e of page.events) send(toDelivered(e));
                replayed += page.events.length;
                if (page.events.length < REPLAY_PAGE) {
                  complete = true;
                  break;
                }
                after = page.events.at(-1)!.position;
              }
              // Too far behind to catch up here: end after what was sent; the client resumes from it.
              if (!complete) return close();
            }
            const waiting = held ?? [];
            held = null;
            for (const e of waiting) send(e);
          } catch (err) {
            console.error('[realtime] replay failed:', err);
            close();
          }
        })();
      },
      // The client went away (Next cancels the body when the socket closes).
      cancel: () => stop(),
    },
    { highWaterMark: 1 },
  );
  return new Response(stream, { status: 200, headers: SSE_HEADERS });
};
