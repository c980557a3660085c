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
 *
 * Blocks and mutes (lib/moderation/visibility): a signed-in subscriber of `feed` does not get the
 * feed_update of an author hidden from them (a block either way, their mute; a repost when its
 * sharer or its original author is hidden). The stream loads the hidden set once when it opens
 * (hiddenAuthorsQuery), before anything is sent, and also hears the internal `moderation`
 * channel: a `visibility_changed` naming the subscriber holds what follows it, reloads the set
 * and goes on with the new one, so a block or an unblock takes effect at its position in the log.
 * Internal events are never sent. The fast path stays: a subscriber whose set is empty (every
 * anonymous one, most signed-in ones) sends the hub's shared bytes as they are; only a subscriber
 * with hidden authors re-joins a batch that holds one of their events.
 */
import { rowsOf, getDb, type DbOrTx } from '@/db/client';
import { now } from '@/lib/clock/clock';
import type { TInternalChannel } from '@/lib/events/types';
import { hiddenAuthorsQuery } from '@/lib/moderation/visibility';
import { addSubscriber, ensureRealtime, hubPosition, isInternalChannel, joinFrames, toBatch, toDelivered, type TBatch, type TDeliveredEvent } from './hub';
import { comparePositions, formatPosition, isAfter, parsePosition, type TPosition } from './position';
import { eventExistsAt, readEventsAfter, readHeadPosition, readLogBounds } from './reader';

type TTimings = { heartbeatMs: number; maxDurationMs: number };
const DEFAULT_TIMINGS: TTimings = { heartbeatMs: 15_000, maxDurationMs: 300_000 };
let timings = DEFAULT_TIMINGS;

/** Test hook: shorter heartbeat and lifetime so tests need no fake clock; no argument resets. */
export function setSseTimings(t?: Partial<TTimings>) {
  timings = { ...DEFAULT_TIMINGS, ...t };
}

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

const NONE: ReadonlySet<string> = new Set();
/** Where the moderation services announce `visibility_changed` (lib/moderation/service/shared.ts). */
const MODERATION_CHANNEL: TInternalChannel = 'moderation';
/** Where lib/chats announces `membership_changed` (a member left a chat). */
const CHATS_CHANNEL: TInternalChannel = 'chats';

/** The chat channel a `membership_changed` event names for `viewer`, or null. */
const leftChannelOf = (e: TDeliveredEvent, viewer: string): string | null => {
  if (e.type !== 'membership_changed' || !e.userIds.includes(viewer)) return null;
  try {
    const chatId = (JSON.parse(e.data) as { chatId?: unknown }).chatId;
    return typeof chatId === 'string' ? `chat:${chatId}` : null;
  } catch {
    return null;
  }
};

/** The authors whose feed events `userId` must not get (lib/moderation/visibility). */
const loadHiddenAuthors = async (db: DbOrTx, userId: string): Promise<ReadonlySet<string>> => {
  const rows = rowsOf<{ id: string }>(await db.execute(hiddenAuthorsQuery(userId)));
  return rows.length ? new Set(rows.map((r) => r.id)) : NONE;
};

/**
 * `lastEventId`: what the client sent (header or query), as sent; null or blank: start live.
 * `userId`: the signed-in subscriber (null: anonymous), whose blocks and mutes filter `feed`.
 */
export function openEventStream(opts: { channels: readonly string[]; userId?: string | null; lastEventId: string | null; signal?: AbortSignal }) {
  const sent = opts.lastEventId?.trim() ? opts.lastEventId : null;
  const channels = new Set(opts.channels);
  const hasChats = [...channels].some((c) => c.startsWith('chat:'));
  // Only a signed-in reader of the feed or of chats has anything to filter, and so a reason to hear
  // `moderation` (and `chats`, for leaving a chat while the stream is open).
  const viewer = opts.userId && (channels.has('feed') || hasChats) ? opts.userId : null;
  const heard = viewer ? new Set([...channels, MODERATION_CHANNEL, ...(hasChats ? [CHATS_CHANNEL] : [])]) : channels;
  let stop = () => {};

  const stream = new ReadableStream<Uint8Array>(
    {
      start: (controller) => {
        let closed = false;
        let lastSent: TPosition | null = null;
        // Live batches held back while the replay runs.
        let held: TBatch[] | null = [];
        let heldCount = 0;
        // Authors hidden from the viewer; loaded before anything is sent.
        let hidden = NONE;
        // Chat channels the viewer left while the stream was open: nothing more of them is sent.
        const revoked = new Set<string>();

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

        const isHidden = (e: TDeliveredEvent) =>
          (revoked.size > 0 && revoked.has(e.channel)) || (e.userIds.length > 0 && !isInternalChannel(e.channel) && e.userIds.some((id) => hidden.has(id)));
        /** Sends what the viewer may get of `events` (none internal, none by a hidden author, none of a chat they left). */
        const sendShown = (events: readonly TDeliveredEvent[]) => {
          const shown = events.filter((e) => !isInternalChannel(e.channel) && !isHidden(e));
          if (shown.length) send(shown);
        };
        const hold = (batch: TBatch) => {
          held!.push(batch);
          heldCount += batch.events.length;
          if (heldCount > HELD_LIMIT) close();
        };
        /** Hands out the held batches, in order, until one of them starts another hold. */
        const releaseHeld = () => {
          const waiting = held ?? [];
          held = null;
          heldCount = 0;
          for (const b of waiting) {
            if (closed) return;
            if (held) hold(b);
            else pass(b);
          }
        };
        /** Reloads the hidden set while later events wait, then lets them through with it. */
        const reloadHidden = async () => {
          try {
            hidden = await loadHiddenAuthors(await getDb(), viewer!);
          } catch (err) {
            // Without a filter it may not trust, the stream ends; the client reconnects and reloads it.
            console.error('[realtime] reloading a stream filter failed:', err);
            return close();
          }
          releaseHeld();
        };
        /** One live batch, in order: the fast path, or filtered, split at a visibility change. */
        const pass = (batch: TBatch) => {
          if (!batch.internal && ((hidden.size === 0 && revoked.size === 0) || !batch.events.some(isHidden))) return send(batch.events, batch.bytes);
          const events = batch.events;
          let from = 0;
          for (let i = 0; i < events.length; i++) {
            const e = events[i]!;
            if (!isInternalChannel(e.channel)) continue;
            const left = leftChannelOf(e, viewer!);
            if (left && channels.has(left)) {
              // Before the leaving: sent. After it: nothing more of that chat.
              sendShown(events.slice(from, i));
              from = i + 1;
              revoked.add(left);
              continue;
            }
            if (e.type !== 'visibility_changed' || !e.userIds.includes(viewer!)) continue;
            // Before the change: the old set. After it: held until the new set is loaded.
            sendShown(events.slice(from, i));
            from = i + 1;
            held = [];
            heldCount = 0;
            if (from < events.length) hold(toBatch(events.slice(from)));
            void reloadHidden();
            return;
          }
          sendShown(from === 0 ? events : events.slice(from));
        };

        const unsubscribe = addSubscriber({
          channels: heard,
          kind: 'sse',
          deliver: (batch) => {
            if (closed) return;
            if (held) return hold(batch);
            // desiredSize = highWaterMark - queued bytes: far below zero means the client is not reading.
            if ((controller.desiredSize ?? 0) < -LIVE_QUEUE_LIMIT_BYTES) {
              close();
              return;
            }
            pass(batch);
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
            // Loaded after subscribing: a change committed before this read is in the set, one
            // committed after it arrives live as visibility_changed and reloads it.
            if (viewer) hidden = await loadHiddenAuthors(await getDb(), viewer);
            if (closed) return;
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
                // The client's channels only (never an internal one), filtered with the set as it is now.
                const page = await readEventsAfter(db, after, { limit: REPLAY_PAGE, channels: [...channels] });
                sendShown(page.events.map(toDelivered));
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
            releaseHeld();
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
}
