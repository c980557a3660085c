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
 * A Last-Event-ID is honoured only when it names an event in the log (one probe of the
 * (tx_id, id) index). Anything else (not "<txId>-<id>", ahead of the log, pruned away, never
 * written) starts the stream live at the hub's position, and its first frame after `retry:` is
 * `event: reset` with `data: {"type":"reset","data":{reason, lastEventId, timestamp}}` and as `id:`
 * the newest logged position up to there (empty, which clears the browser's id, when there is
 * none), so the next reconnect sends an id that replays. The client refreshes what it shows.
 *
 * A slow client: frames queue in its own stream; past LIVE_QUEUE_LIMIT_BYTES queued the stream
 * is closed (after the queued frames) and the client reconnects and replays from its last id.
 */
import { getDb } from '@/db/client';
import { now } from '@/lib/clock/clock';
import { addSubscriber, ensureRealtime, hubPosition, joinFrames, toDelivered, type TBatch, type TDeliveredEvent } from './hub';
import { comparePositions, formatPosition, isAfter, parsePosition, type TPosition } from './position';
import { eventExistsAt, readEventsAfter, readHeadPosition, readLogBounds } from './reader';

type TTimings = { heartbeatMs: number; maxDurationMs: number };
const DEFAULT_TIMINGS: TTimings = { heartbeatMs: 15_000, maxDurationMs: 300_000 };
let timings = DEFAULT_TIMINGS;

/** Test hook: shorter heartbeat and lifetime so tests need no fake clock; no argument resets. */
export const setSseTimings = (t?: Partial<TTimings>) => {
  timings = { ...DEFAULT_TIMINGS, ...t };
};

export const RETRY_MS = 3000;
/** Bytes a client may have queued before it counts as too slow and is closed. */
export const LIVE_QUEUE_LIMIT_BYTES = 1 << 20;
/** Live events held while a reconnect's replay runs, at most. */
const HELD_LIMIT = 10_000;
const REPLAY_PAGE = 500;
/** A reconnect replays at most this much; a client further behind continues from a new connection. */
const REPLAY_LIMIT = 10_000;

const encoder = new TextEncoder();
const PING = encoder.encode(': ping\n\n');

/** Why a Last-Event-ID was not honoured (the `reason` of a `reset` frame). */
export type TResetReason = 'malformed' | 'ahead_of_log' | 'older_than_log' | 'not_in_log';
/** At most this much of the client's Last-Event-ID is echoed in a `reset` frame. */
const RESET_ECHO_CHARS = 64;

/** The `reset` frame: `id:` the position to resume from (empty: none, which clears the client's). */
const encodeReset = (id: TPosition | null, reason: TResetReason, sent: string) =>
  encoder.encode(
    `id:${id ? ` ${formatPosition(id)}` : ''}\nevent: reset\ndata: ${JSON.stringify({
      type: 'reset',
      data: { reason, lastEventId: sent.slice(0, RESET_ECHO_CHARS), timestamp: now().toISOString() },
    })}\n\n`,
  );

export const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  // no-transform keeps Next's compression from buffering the stream.
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};

/** `lastEventId`: what the client sent (header or query), as sent; null or blank: start live. */
export const openEventStream = (opts: { channels: readonly string[]; lastEventId: string | null; signal?: AbortSignal }) => {
  const sent = opts.lastEventId?.trim() ? opts.lastEventId : null;
  const channels = new Set(opts.channels);
  let stop = () => {};

  const stream = new ReadableStream<Uint8Array>(
    {
      start: (controller) => {
        let closed = false;
        let lastSent: TPosition | null = null;
        // Live batches held back while the replay runs.
        let held: TBatch[] | null = [];
        let heldCount = 0;

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
        /** Sends the events after the last one sent, as one chunk. */
        const send = (events: readonly TDeliveredEvent[], bytes?: Uint8Array) => {
          if (closed || events.length === 0) return;
          // The usual case: all new (live, no replay overlap), and the joined bytes are shared.
          const fresh = isAfter(events[0]!.position, lastSent) ? events : events.filter((e) => isAfter(e.position, lastSent));
          if (fresh.length === 0) return;
          lastSent = fresh.at(-1)!.position;
          controller.enqueue(fresh === events && bytes ? bytes : joinFrames(fresh));
        };

        const unsubscribe = addSubscriber({
          channels,
          kind: 'sse',
          deliver: (batch) => {
            if (closed) return;
            if (held) {
              held.push(batch);
              heldCount += batch.events.length;
              if (heldCount > HELD_LIMIT) close();
              return;
            }
            // desiredSize = highWaterMark - queued bytes: far below zero means the client is not reading.
            if ((controller.desiredSize ?? 0) < -LIVE_QUEUE_LIMIT_BYTES) {
              close();
              return;
            }
            send(batch.events, batch.bytes);
          },
        });
        const heartbeat = setInterval(() => {
          if (!closed) controller.enqueue(PING);
        }, timings.heartbeatMs);
        const retryHint = encoder.encode(`retry: ${RETRY_MS}\n\n`);
        // At the limit, the retry hint again, then the end: the browser reconnects with Last-Event-ID.
        const lifetime = setTimeout(() => {
          if (!closed) controller.enqueue(retryHint);
          close();
        }, timings.maxDurationMs);
        const onAbort = () => close();
        opts.signal?.addEventListener('abort', onAbort);
        cleanup = () => {
          unsubscribe();
          clearInterval(heartbeat);
          clearTimeout(lifetime);
          opts.signal?.removeEventListener('abort', onAbort);
        };
        if (opts.signal?.aborted) return close();

        controller.enqueue(retryHint);
        void (async () => {
          try {
            await ensureRealtime();
            // Every live event this stream receives from here on is after this position.
            const live = hubPosition();
            const resume = sent === null ? null : parsePosition(sent);
            const db = sent === null ? null : await getDb();
            if (db && (!resume || !(await eventExistsAt(db, resume)))) {
              // Not an id this log can resume from: start live, and say so first.
              if (closed) return;
              const at = live ?? (await readHeadPosition(db));
              const { oldest, latest } = await readLogBounds(db, at);
              if (closed) return;
              const reason: TResetReason = !resume
                ? 'malformed'
                : isAfter(resume, at)
                  ? 'ahead_of_log'
                  : !oldest || comparePositions(resume, oldest) < 0
                    ? 'older_than_log'
                    : 'not_in_log';
              lastSent = at;
              controller.enqueue(encodeReset(latest, reason, sent!));
            } else if (db && resume) {
              lastSent = resume;
              let after = resume;
              let complete = false;
              for (let replayed = 0; replayed < REPLAY_LIMIT && !closed; ) {
                const page = await readEventsAfter(db, after, { limit: REPLAY_PAGE, channels: [...channels] });
                send(page.events.map(toDelivered));
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
            for (const b of waiting) send(b.events, b.bytes);
          } catch (err) {
            console.error('[realtime] replay failed:', err);
            close();
          }
        })();
      },
      // The client went away (Next cancels the body when the socket closes).
      cancel: () => stop(),
    },
    // Queue size in bytes, so the slow-client limit means the same whatever the batch sizes.
    { highWaterMark: 1, size: (chunk) => chunk?.byteLength ?? 0 },
  );
  return new Response(stream, { status: 200, headers: SSE_HEADERS });
};
