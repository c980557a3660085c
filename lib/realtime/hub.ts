/**
 * The per-instance fan-out. One LISTEN per process (db/client.ts listenToNotifications) wakes the
 * hub; it reads the outbox from its cursor (lib/realtime/reader.ts) and hands each event to the
 * subscribers of its channel, in position order. Notifications that arrive while a read runs
 * are coalesced into one more read. Each event's SSE frame is encoded once, and each page read is
 * handed to a subscriber as ONE batch whose frames are joined once per distinct channel set:
 * per-chunk cost (Next pipes every chunk through web streams into the socket) dominates a
 * fan-out to thousands of clients, and when the hub falls behind, bigger batches let it catch
 * up. Delivery is a synchronous hand-off into the subscriber's own bounded buffer, so a slow
 * client never delays the others (lib/realtime/sse.ts closes one that overflows).
 *
 * Internal channels (lib/events/types INTERNAL_CHANNELS: `moderation`) travel through the same
 * hub to the subscribers that ask for them, but their frames are never part of a batch's bytes:
 * no client can receive one, even a subscriber that hears the channel (an SSE stream of a
 * signed-in user, which reloads its filter on `visibility_changed`: lib/realtime/sse.ts).
 *
 * State lives on globalThis: Next.js bundles each route separately, and they must share one
 * listener. The hub starts on its first subscriber and follows the database handle: when tests
 * close and reopen the database, the next subscriber starts it again on the new one.
 */
import { getRootDb, listenToNotifications, type Db } from '@/db/client';
import { EVENTS_NOTIFY_CHANNEL } from '@/lib/events/outbox';
import { INTERNAL_CHANNELS } from '@/lib/events/types';
import { observeSseDelivery } from '@/lib/metrics/recorder';
import { formatPosition, type TPosition } from './position';
import { readEventsAfter, readHeadPosition, type TLoggedEvent } from './reader';

/**
 * A logged event as delivered: its SSE frame is encoded once for every subscriber, and the users
 * it is by or about are read from its data once (a feed_update's author and a repost's original
 * author; the users a visibility_changed names), for the per-subscriber filters of sse.ts.
 */
export type TDeliveredEvent = TLoggedEvent & { cursor: string; frame: Uint8Array; userIds: readonly string[] };

/**
 * Consecutive events for one subscriber, in position order, and the frames of those a client may
 * receive, joined. `internal`: some events are on an internal channel (their frames are not in
 * `bytes`).
 */
export type TBatch = { events: TDeliveredEvent[]; bytes: Uint8Array; internal: boolean };

/** Whether a channel is the service's own (never sent to a client). */
export function isInternalChannel(channel: string) {
  return (INTERNAL_CHANNELS as readonly string[]).includes(channel);
}

export type TSubscriber = {
  /** null: every channel (in-process consumers: lib/realtime/bus.ts). */
  channels: ReadonlySet<string> | null;
  /** SSE clients count in the stats; in-process consumers do not. */
  kind: 'sse' | 'internal';
  deliver: (batch: TBatch) => void;
  /** Cache key of the channel set (batches are built once per key); derived when added. */
  key?: string;
};

const PAGE = 500;
/** Re-read delays while committed events wait behind an older open transaction. */
const PENDING_RETRY_MS = [5, 10, 20, 50, 100, 250];
/** A safety read in case a notification was lost (the listening connection reconnected). */
const SAFETY_POLL_MS = 5_000;

type THub = {
  subscribers: Set<TSubscriber>;
  db: Db | null;
  cursor: TPosition | null;
  starting: Promise<void> | null;
  stopListening: (() => Promise<void>) | null;
  reading: boolean;
  dirty: boolean;
  retries: number;
  retryTimer: NodeJS.Timeout | null;
  pollTimer: NodeJS.Timeout | null;
};

const KEY = Symbol.for('playmoney.realtime.hub');
type TGlobal = typeof globalThis & { [KEY]?: THub };
const hub = ((globalThis as TGlobal)[KEY] ??= {
  subscribers: new Set(),
  db: null,
  cursor: null,
  starting: null,
  stopListening: null,
  reading: false,
  dirty: false,
  retries: 0,
  retryTimer: null,
  pollTimer: null,
});

const encoder = new TextEncoder();
const EMPTY = new Uint8Array(0);

/** `id:`, `event:` and one `data:` line with the spec's `{type, data}` object. */
const encodeFrame = (e: TLoggedEvent, cursor: string) =>
  encoder.encode(`id: ${cursor}\nevent: ${e.type}\ndata: {"type":${JSON.stringify(e.type)},"data":${e.data}}\n\n`);

const NOBODY: readonly string[] = [];

/** The users an event is by or about, for the channels that are filtered per subscriber. */
const userIdsOf = (e: TLoggedEvent): readonly string[] => {
  const isChat = e.channel.startsWith('chat:');
  if (e.channel !== 'feed' && !isChat && !isInternalChannel(e.channel)) return NOBODY;
  try {
    const data = JSON.parse(e.data) as { post?: { authorId?: unknown; originalAuthorId?: unknown }; userIds?: unknown; senderId?: unknown };
    const ids = isChat
      ? [data.senderId]
      : data.post
        ? [data.post.authorId, data.post.originalAuthorId]
        : Array.isArray(data.userIds)
          ? data.userIds
          : [];
    return ids.filter((id): id is string => typeof id === 'string');
  } catch {
    return NOBODY;
  }
};

export function toDelivered(e: TLoggedEvent): TDeliveredEvent {
  const cursor = formatPosition(e.position);
  return { ...e, cursor, frame: encodeFrame(e, cursor), userIds: userIdsOf(e) };
}

/** Events as one batch: the frames a client may receive joined, internal ones left out. */
export function toBatch(events: TDeliveredEvent[]): TBatch {
  const internal = events.some((e) => isInternalChannel(e.channel));
  return { events, bytes: joinFrames(internal ? events.filter((e) => !isInternalChannel(e.channel)) : events), internal };
}

/** Joins frames into one chunk. */
export function joinFrames(events: readonly TDeliveredEvent[]): Uint8Array {
  if (events.length === 1) return events[0]!.frame;
  if (events.length === 0) return EMPTY;
  const out = new Uint8Array(events.reduce((n, e) => n + e.frame.byteLength, 0));
  let at = 0;
  for (const e of events) {
    out.set(e.frame, at);
    at += e.frame.byteLength;
  }
  return out;
}

const fanOut = (page: readonly TLoggedEvent[]) => {
  if (page.length === 0 || hub.subscribers.size === 0) return;
  const delivered = page.map(toDelivered);
  const batches = new Map<string, TBatch | null>();
  const sseReceivers = new Map<TBatch, number>();
  for (const s of hub.subscribers) {
    let batch = batches.get(s.key!);
    if (batch === undefined) {
      const mine = s.channels ? delivered.filter((e) => s.channels!.has(e.channel)) : delivered;
      batch = mine.length ? toBatch(mine) : null;
      batches.set(s.key!, batch);
    }
    if (!batch) continue;
    if (s.kind === 'sse') sseReceivers.set(batch, (sseReceivers.get(batch) ?? 0) + 1);
    try {
      s.deliver(batch);
    } catch (err) {
      console.error('[realtime] subscriber failed:', err);
    }
  }
  // The delivery delay, from logging to the hand-off, once per event and batch, weighted by the SSE subscribers that got it.
  const now = Date.now();
  for (const [batch, n] of sseReceivers) {
    for (const e of batch.events) if (e.loggedAt !== undefined && !isInternalChannel(e.channel)) observeSseDelivery(now - e.loggedAt, n, now);
  }
};

const scheduleRetry = () => {
  if (hub.retryTimer) return;
  const delay = PENDING_RETRY_MS[Math.min(hub.retries++, PENDING_RETRY_MS.length - 1)]!;
  hub.retryTimer = setTimeout(() => {
    hub.retryTimer = null;
    void drain();
  }, delay);
  hub.retryTimer.unref?.();
};

/** Reads and fans out everything readable after the cursor; one read at a time, bursts coalesce. */
const drain = async (): Promise<void> => {
  if (hub.reading) {
    hub.dirty = true;
    return;
  }
  const db = hub.db;
  if (!db || !hub.cursor) return;
  hub.reading = true;
  let pending = false;
  try {
    do {
      hub.dirty = false;
      const page = await readEventsAfter(db, hub.cursor, { limit: PAGE });
      if (hub.db !== db) return; // stopped meanwhile
      if (page.events.length) hub.cursor = page.events.at(-1)!.position;
      fanOut(page.events);
      pending = page.pending;
      if (page.events.length === PAGE) {
        hub.dirty = true;
        // Let consumers drain their buffers before the next page, so a burst is not mistaken for
        // a slow client.
        await new Promise((r) => setImmediate(r));
      }
    } while (hub.dirty);
    if (pending) scheduleRetry();
    else hub.retries = 0;
  } catch (err) {
    // The database may be restarting: read again shortly rather than lose the stream, while
    // anyone is listening (a closed database with nobody subscribed is simply left alone).
    if (hub.subscribers.size > 0) {
      if (hub.retries === 0) console.error('[realtime] reading the event log failed:', err);
      scheduleRetry();
    }
  } finally {
    hub.reading = false;
  }
};

const start = async () => {
  const db = await getRootDb();
  if (hub.db === db && hub.cursor) return;
  await stopRealtime();
  hub.db = db;
  // Listen first, then take the starting position: a commit between the two is read, not missed.
  const stop = await listenToNotifications(
    EVENTS_NOTIFY_CHANNEL,
    () => void drain(),
    () => void drain(),
  );
  const head = await readHeadPosition(db);
  if (hub.db !== db) {
    await stop();
    return;
  }
  hub.stopListening = stop;
  hub.cursor = head;
  hub.pollTimer = setInterval(() => {
    if (hub.subscribers.size > 0) void drain();
  }, SAFETY_POLL_MS);
  hub.pollTimer.unref?.();
  void drain();
};

/**
 * Starts the hub on the current database if it is not running there yet. Resolves once the
 * starting position is fixed: every event after it reaches the subscribers registered by then.
 */
export async function ensureRealtime() {
  const db = await getRootDb();
  if (hub.db === db && hub.cursor) return;
  hub.starting ??= start().finally(() => {
    hub.starting = null;
  });
  await hub.starting;
}

/** Registers a subscriber; returns the function that removes it. */
export function addSubscriber(s: TSubscriber) {
  s.key = s.channels ? [...s.channels].sort().join(',') : '*';
  hub.subscribers.add(s);
  return () => {
    hub.subscribers.delete(s);
  };
}

/**
 * Reads now instead of waiting for a notification, and resolves when that read is done: every
 * event readable at the call has been handed to the subscribers (tests rely on this).
 */
export async function pokeRealtime() {
  // A read already running may have started before the caller's commit: wait for it, then read.
  while (hub.reading) await new Promise((r) => setTimeout(r, 2));
  await drain();
}

/**
 * The hub's cursor: every event after it reaches the subscribers registered now, every event up
 * to it has already been handed out. Null while the hub is not running.
 */
export function hubPosition(): TPosition | null {
  return hub.cursor;
}

/** Connected SSE clients per channel and in total, on this instance. */
export function realtimeStats() {
  const channels: Record<string, number> = {};
  let total = 0;
  for (const s of hub.subscribers) {
    if (s.kind !== 'sse') continue;
    total++;
    for (const c of s.channels ?? []) if (!isInternalChannel(c)) channels[c] = (channels[c] ?? 0) + 1;
  }
  return { totalClients: total, channels };
}

/** Stops listening (tests, shutdown); subscribers stay registered for a restart. */
export async function stopRealtime() {
  const stop = hub.stopListening;
  hub.stopListening = null;
  hub.db = null;
  hub.cursor = null;
  hub.retries = 0;
  if (hub.retryTimer) clearTimeout(hub.retryTimer);
  if (hub.pollTimer) clearInterval(hub.pollTimer);
  hub.retryTimer = hub.pollTimer = null;
  await stop?.().catch(() => {});
}
