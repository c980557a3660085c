import { describe, expect, it, vi } from 'vitest';
import { RECONNECT_GRACE_MS, RETRY_MAX_MS, openRealtimeConnection, retryDelayMs, type TConnectionState, type TEventSourceLike } from './connection';
import type { TRealtimeEvent } from './events';
import { createRealtimeHub } from './hub';

/** A scriptable EventSource: the test opens it, fails it and sends frames. */
class FakeEventSource implements TEventSourceLike {
  readyState = 0;
  onopen: ((e: Event) => unknown) | null = null;
  onerror: ((e: Event) => unknown) | null = null;
  listeners = new Map<string, ((e: MessageEvent<string>) => void)[]>();
  isClosed = false;
  constructor(readonly url: string) {}
  addEventListener(type: string, l: (e: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), l]);
  }
  close() {
    this.isClosed = true;
    this.readyState = 2;
  }
  open() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  /** The stream dropped; the browser retries (CONNECTING) or gives up (CLOSED). */
  fail(readyState: 0 | 2) {
    this.readyState = readyState;
    this.onerror?.(new Event('error'));
  }
  send(type: string, data: unknown, lastEventId = '') {
    const e = { data: JSON.stringify({ type, data }), lastEventId } as MessageEvent<string>;
    for (const l of this.listeners.get(type) ?? []) l(e);
  }
}

const setup = ({ isOnline = true } = {}) => {
  vi.useFakeTimers();
  const sources: FakeEventSource[] = [];
  const states: TConnectionState[] = [];
  const events: TRealtimeEvent[] = [];
  let reconnects = 0;
  const connection = openRealtimeConnection({
    channels: ['feed', 'markets'],
    onEvent: (e) => events.push(e),
    onState: (s) => states.push(s),
    onReconnect: () => reconnects++,
    createEventSource: (url) => {
      const es = new FakeEventSource(url);
      sources.push(es);
      return es;
    },
    isOnline: () => isOnline,
    random: () => 1,
  });
  return { connection, sources, states, events, reconnects: () => reconnects, last: () => sources.at(-1)! };
};

const MARKET = { marketId: 'm1', yesPrice: 0.5, noPrice: 0.5, yesShares: 1, noShares: 1, timestamp: '2026-01-01T00:00:00.000Z' };

describe('openRealtimeConnection', () => {
  it('opens one stream for the channels, reports connecting then open, and passes events on', () => {
    const t = setup();
    expect(t.sources).toHaveLength(1);
    expect(t.last().url).toBe('/api/sse/events?channels=feed%2Cmarkets');
    expect(t.states).toEqual(['connecting']);
    t.last().open();
    expect(t.states).toEqual(['connecting', 'open']);
    t.last().send('market_update', MARKET, '7');
    t.last().send('market_update', { broken: true });
    t.last().send('unknown_type', {});
    expect(t.events).toEqual([{ type: 'market_update', data: MARKET }]);
    expect(t.reconnects()).toBe(0);
    t.connection.close();
    vi.useRealTimers();
  });

  it('follows a new set of channels from the last event id, without reporting a reconnect; the same set does nothing', () => {
    const t = setup();
    t.last().open();
    t.last().send('market_update', MARKET, '9-3');
    t.connection.setChannels(['feed', 'markets']);
    expect(t.sources).toHaveLength(1);
    t.connection.setChannels(['feed', 'markets', 'chat:c1']);
    expect(t.sources).toHaveLength(2);
    expect(t.sources[0]!.isClosed).toBe(true);
    expect(t.last().url).toBe('/api/sse/events?channels=feed%2Cmarkets%2Cchat%3Ac1&lastEventId=9-3');
    t.last().open();
    expect(t.reconnects()).toBe(0);
    expect(t.states.at(-1)).toBe('open');
    // A real drop after it still counts.
    t.last().fail(2);
    vi.advanceTimersByTime(RETRY_MAX_MS);
    t.last().open();
    expect(t.reconnects()).toBe(1);
    t.connection.close();
    vi.useRealTimers();
  });

  it('a switch of channels before any event had an id is reported as a reconnect (readers refetch what the new stream cannot replay)', () => {
    const t = setup();
    t.last().open();
    t.connection.setChannels(['feed', 'markets', 'chat:c1']);
    expect(t.last().url).toBe('/api/sse/events?channels=feed%2Cmarkets%2Cchat%3Ac1');
    t.last().open();
    expect(t.reconnects()).toBe(1);
    t.connection.close();
    vi.useRealTimers();
  });

  it('a planned end of the stream that is back within the grace period never shows as reconnecting, but counts as a reconnect', () => {
    const t = setup();
    t.last().open();
    t.last().fail(0);
    vi.advanceTimersByTime(RECONNECT_GRACE_MS - 1);
    t.last().open();
    vi.advanceTimersByTime(RECONNECT_GRACE_MS * 2);
    expect(t.states).toEqual(['connecting', 'open']);
    expect(t.reconnects()).toBe(1);
    expect(t.sources).toHaveLength(1);
    t.connection.close();
    vi.useRealTimers();
  });

  it('a longer outage shows as reconnecting; the browser resumes the same stream', () => {
    const t = setup();
    t.last().open();
    t.last().fail(0);
    vi.advanceTimersByTime(RECONNECT_GRACE_MS);
    expect(t.states.at(-1)).toBe('reconnecting');
    t.last().open();
    expect(t.states.at(-1)).toBe('open');
    expect(t.reconnects()).toBe(1);
    t.connection.close();
    vi.useRealTimers();
  });

  it('when the browser gives up, opens a new stream after a backoff, resuming from the last event id', () => {
    const t = setup();
    t.last().open();
    t.last().send('market_update', MARKET, '41:9');
    t.last().fail(2);
    expect(t.last().isClosed).toBe(true);
    vi.advanceTimersByTime(retryDelayMs(0, 1) - 1);
    expect(t.sources).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(t.sources).toHaveLength(2);
    expect(t.last().url).toBe('/api/sse/events?channels=feed%2Cmarkets&lastEventId=41%3A9');
    // It fails too: the next wait is longer.
    t.last().fail(2);
    vi.advanceTimersByTime(retryDelayMs(1, 1) - 1);
    expect(t.sources).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(t.sources).toHaveLength(3);
    // Still down when the grace period is over: now the page says so.
    t.last().fail(2);
    vi.advanceTimersByTime(RECONNECT_GRACE_MS);
    expect(t.states.at(-1)).toBe('reconnecting');
    vi.advanceTimersByTime(RETRY_MAX_MS);
    expect(t.sources).toHaveLength(4);
    t.last().open();
    expect(t.states.at(-1)).toBe('open');
    expect(t.reconnects()).toBe(1);
    t.connection.close();
    vi.useRealTimers();
  });

  it('a reset notice after a reconnect refreshes once (not twice) and resumes from the server’s id, not the refused one', () => {
    const t = setup();
    t.last().open();
    t.last().send('market_update', MARKET, '41-9');
    t.last().fail(0); // the browser reconnects with Last-Event-ID 41-9, which the log no longer holds
    t.last().open();
    expect(t.reconnects()).toBe(1);
    t.last().send('reset', { reason: 'older_than_log', lastEventId: '41-9', timestamp: '2026-01-01T00:00:00.000Z' }, '77-3');
    expect(t.reconnects()).toBe(1);
    expect(t.events).toEqual([{ type: 'market_update', data: MARKET }]); // not passed on as an event
    t.last().send('market_update', MARKET, '78-1');
    expect(t.events).toHaveLength(2);
    // A later manual stream resumes after what the reset stream sent.
    t.last().fail(2);
    vi.advanceTimersByTime(RETRY_MAX_MS);
    expect(t.last().url).toBe('/api/sse/events?channels=feed%2Cmarkets&lastEventId=78-1');
    t.connection.close();
    vi.useRealTimers();
  });

  it('a reset notice on an open not yet reported refreshes once; its empty id clears the id to resume from', () => {
    const t = setup();
    t.last().open();
    t.last().send('market_update', MARKET, '41-9');
    expect(t.reconnects()).toBe(0);
    t.last().send('reset', { reason: 'malformed', lastEventId: 'x', timestamp: '2026-01-01T00:00:00.000Z' }, '');
    t.last().send('reset', { reason: 'malformed', lastEventId: 'x', timestamp: '2026-01-01T00:00:00.000Z' }, '');
    expect(t.reconnects()).toBe(1);
    t.last().fail(2);
    vi.advanceTimersByTime(RETRY_MAX_MS);
    expect(t.last().url).toBe('/api/sse/events?channels=feed%2Cmarkets');
    t.connection.close();
    vi.useRealTimers();
  });

  it('offline stops retrying; back online opens a fresh stream at once', () => {
    const t = setup();
    t.last().open();
    t.connection.goOffline();
    expect(t.states.at(-1)).toBe('open'); // the stream itself is still up
    t.last().fail(2);
    expect(t.states.at(-1)).toBe('offline');
    vi.advanceTimersByTime(RETRY_MAX_MS * 4);
    expect(t.sources).toHaveLength(1);
    t.connection.goOnline();
    expect(t.sources).toHaveLength(2);
    expect(t.states.at(-1)).toBe('reconnecting');
    t.last().open();
    expect(t.states.at(-1)).toBe('open');
    expect(t.reconnects()).toBe(1);
    t.connection.close();
    vi.useRealTimers();
  });

  it('starts offline when the browser is offline, and close stops everything', () => {
    const t = setup({ isOnline: false });
    expect(t.states).toEqual(['offline']);
    t.last().fail(2);
    t.connection.close();
    vi.advanceTimersByTime(RETRY_MAX_MS * 4);
    expect(t.sources).toHaveLength(1);
    vi.useRealTimers();
  });
});

describe('retryDelayMs', () => {
  it('doubles from half a second to a second, up to 30 s', () => {
    expect(retryDelayMs(0, 0)).toBe(500);
    expect(retryDelayMs(0, 1)).toBe(1000);
    expect(retryDelayMs(3, 1)).toBe(8000);
    expect(retryDelayMs(50, 1)).toBe(RETRY_MAX_MS);
    expect(retryDelayMs(50, 0)).toBe(RETRY_MAX_MS / 2);
  });
});

describe('createRealtimeHub', () => {
  it('dispatches by type, survives a throwing handler, and unsubscribes', () => {
    const hub = createRealtimeHub();
    const seen: string[] = [];
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const off = hub.on('market_update', (d) => seen.push(d.marketId));
    hub.on('market_update', () => {
      throw new Error('boom');
    });
    hub.on('feed_update', () => seen.push('feed'));
    hub.emit({ type: 'market_update', data: MARKET });
    off();
    hub.emit({ type: 'market_update', data: MARKET });
    expect(seen).toEqual(['m1']);
    expect(error).toHaveBeenCalledTimes(2);
    error.mockRestore();
  });

  it('is an external store of the connection state', () => {
    const hub = createRealtimeHub();
    const listener = vi.fn();
    hub.subscribeState(listener);
    expect(hub.getState()).toBe('connecting');
    hub.setState('open');
    hub.setState('open');
    expect(hub.getState()).toBe('open');
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
