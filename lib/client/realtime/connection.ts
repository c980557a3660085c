/**
 * One Server-Sent Events connection and the state a page shows for it. The browser's
 * EventSource already reconnects by itself after a dropped stream (the server ends each stream
 * after 300 s) and sends `Last-Event-ID`, so the server replays what was missed. It gives up only
 * when an answer is not an event stream (a 5xx, a proxy error page); then this module opens a
 * new one after an exponential, jittered backoff, carrying the last id as a query parameter
 * because a new EventSource cannot set the header. Every open after the first is reported as a
 * reconnect, so the page can refetch what even a replay may have missed. A `reset` notice (the
 * server could not resume from our id and started live) is a reconnect after a gap too: it is
 * reported once per open (not again when that open was already reported), and its id replaces ours.
 * I/O: the EventSource and timers it is given (browser globals by default; tests pass fakes).
 */
import { REALTIME_EVENT_TYPES, STREAM_RESET_EVENT, parseRealtimeEvent, realtimeUrl, type TRealtimeEvent } from './events';

export type TConnectionState = 'connecting' | 'open' | 'reconnecting' | 'offline';

/** The part of EventSource this module uses. */
export type TEventSourceLike = {
  readonly readyState: number;
  onopen: ((e: Event) => unknown) | null;
  onerror: ((e: Event) => unknown) | null;
  addEventListener: (type: string, listener: (e: MessageEvent<string>) => void) => void;
  close: () => void;
};

/** EventSource.readyState values (the constants are not on the fakes tests use). */
const OPEN = 1;
const CLOSED = 2;

/**
 * How long a stream that was open may be away before the page says "reconnecting": the planned
 * end of each stream is back after the server's `retry:` hint (3 s) and should not flicker the
 * indicator.
 */
export const RECONNECT_GRACE_MS = 5_000;

export const RETRY_BASE_MS = 1_000;
export const RETRY_MAX_MS = 30_000;

/** The wait before manual attempt `attempt` (0-based): doubling from 1 s up to 30 s, half of it random. */
export function retryDelayMs(attempt: number, random: number) {
  const ceiling = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.min(attempt, 16));
  return Math.round(ceiling / 2 + (ceiling / 2) * random);
}

export type TConnectionOptions = {
  channels: readonly string[];
  onEvent: (event: TRealtimeEvent) => void;
  onState: (state: TConnectionState) => void;
  /** The stream is open again after having been open: refetch whatever a replay cannot cover. */
  onReconnect: () => void;
  createEventSource?: (url: string) => TEventSourceLike;
  isOnline?: () => boolean;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  random?: () => number;
};

export type TRealtimeConnection = {
  /** The browser reports it lost the network: show "offline" and stop retrying until it is back. */
  goOffline: () => void;
  /** The network is back: if the stream is not open, open a fresh one now rather than after a backoff. */
  goOnline: () => void;
  /**
   * Follows another set of channels (the signed-in reader's chats came or went): a new stream on
   * them resumes from the last event id, so the server replays what came in between and nothing
   * is lost; it is not reported as a reconnect (unless there was no id to resume from). The same
   * set does nothing.
   */
  setChannels: (next: readonly string[]) => void;
  close: () => void;
};

export function openRealtimeConnection({
  channels,
  onEvent,
  onState,
  onReconnect,
  createEventSource = (url) => new EventSource(url, { withCredentials: true }) as TEventSourceLike,
  isOnline = () => true,
  setTimer = (fn, ms) => setTimeout(fn, ms),
  clearTimer = (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  random = Math.random,
}: TConnectionOptions): TRealtimeConnection {
  let source: TEventSourceLike | null = null;
  let state: TConnectionState | null = null;
  let hasOpened = false;
  let isOffline = !isOnline();
  let isClosed = false;
  let lastEventId: string | null = null;
  let current = [...channels];
  /** The next open follows a change of channels, not a drop: nothing to report. */
  let isSwitching = false;
  /** This open of the stream was reported as a reconnect already. */
  let isReported = false;
  let attempt = 0;
  let retryTimer: unknown = null;
  let graceTimer: unknown = null;

  const cancelGrace = () => {
    if (graceTimer !== null) clearTimer(graceTimer);
    graceTimer = null;
  };

  const setState = (next: TConnectionState) => {
    cancelGrace();
    if (next === state) return;
    state = next;
    onState(next);
  };
  /** What a stream that is not open means right now. */
  const waitingState = (): TConnectionState => (isOffline ? 'offline' : hasOpened ? 'reconnecting' : 'connecting');

  const onMessage = (e: MessageEvent<string>) => {
    if (e.lastEventId) lastEventId = e.lastEventId;
    const event = parseRealtimeEvent(e.data);
    if (event) onEvent(event);
  };

  const onReset = (e: MessageEvent<string>) => {
    // The server's id replaces the one it refused, even an empty one (nothing to resume from).
    lastEventId = e.lastEventId || null;
    if (isReported) return;
    isReported = true;
    onReconnect();
  };

  const cancelRetry = () => {
    if (retryTimer !== null) clearTimer(retryTimer);
    retryTimer = null;
  };

  const drop = () => {
    if (!source) return;
    source.onopen = null;
    source.onerror = null;
    source.close();
    source = null;
  };

  const scheduleRetry = () => {
    cancelRetry();
    if (isOffline || isClosed) return;
    retryTimer = setTimer(() => {
      retryTimer = null;
      connect();
    }, retryDelayMs(attempt++, random()));
  };

  const connect = () => {
    drop();
    const es = createEventSource(realtimeUrl(current, lastEventId));
    source = es;
    es.onopen = () => {
      attempt = 0;
      const isReconnect = hasOpened && !isSwitching;
      isSwitching = false;
      hasOpened = true;
      isReported = isReconnect;
      setState('open');
      if (isReconnect) onReconnect();
    };
    es.onerror = () => {
      if (isClosed || source !== es) return;
      if (es.readyState === CLOSED) {
        // The browser will not retry this one (the answer was not an event stream).
        drop();
        scheduleRetry();
      }
      const next = waitingState();
      if (state === 'open' && next === 'reconnecting') {
        // Say so only if it is not back shortly (onopen cancels this).
        if (graceTimer === null) graceTimer = setTimer(() => setState(waitingState()), RECONNECT_GRACE_MS);
        return;
      }
      setState(next);
    };
    for (const type of REALTIME_EVENT_TYPES) es.addEventListener(type, onMessage);
    es.addEventListener(STREAM_RESET_EVENT, onReset);
    // Frames without an `event:` line arrive as "message"; the type is in the JSON too.
    es.addEventListener('message', onMessage);
  };

  setState(waitingState());
  connect();

  return {
    goOffline: () => {
      isOffline = true;
      cancelRetry();
      if (source?.readyState !== OPEN) setState('offline');
    },
    goOnline: () => {
      isOffline = false;
      if (isClosed) return;
      if (source?.readyState === OPEN) {
        setState('open');
        return;
      }
      cancelRetry();
      attempt = 0;
      setState(waitingState());
      connect();
    },
    setChannels: (next) => {
      if (isClosed || (next.length === current.length && next.every((c, i) => c === current[i]))) return;
      current = [...next];
      if (isOffline) return;
      cancelRetry();
      attempt = 0;
      // With an id the new stream resumes and misses nothing; without one (no event yet) it
      // starts live, so its open is reported like a reconnect and readers refetch.
      isSwitching = hasOpened && lastEventId !== null;
      connect();
    },
    close: () => {
      isClosed = true;
      cancelRetry();
      cancelGrace();
      drop();
    },
  };
}
