/**
 * In-process consumers of events (tests, server-side code that reacts to what happened): a
 * subscriber receives every committed event of every channel, read from the outbox by the
 * hub, in commit order. Nothing publishes here: writers call emitEvent in their transaction
 * (lib/events/outbox.ts). A failing subscriber never affects the others. It lives with delivery
 * so that imports run one way: lib/realtime reads lib/events, never the reverse.
 */
import type { TChannel, TChannelEvent } from '@/lib/events/types';
import { addSubscriber, ensureRealtime } from './hub';

export type { TChannel, TChannelEvent, TMarketUpdate } from '@/lib/events/types';

type TListener = (channel: TChannel, event: TChannelEvent) => void;

/**
 * Subscribes to every channel; returns the unsubscribe function. Delivery starts once the hub
 * listens: await `ready` before causing the events you expect.
 */
export function subscribe(listener: TListener) {
  const off = addSubscriber({
    channels: null,
    kind: 'internal',
    deliver: (batch) => {
      for (const e of batch.events) {
        try {
          listener(e.channel as TChannel, { type: e.type, data: JSON.parse(e.data) as Record<string, unknown> });
        } catch (err) {
          console.error('[events] subscriber failed:', err);
        }
      }
    },
  });
  const ready = ensureRealtime();
  ready.catch(() => {}); // the caller sees a failure by awaiting ready
  return Object.assign(off, { ready });
}
