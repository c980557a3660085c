/**
 * The in-process event bus: services publish after their transaction commits, subscribers (the
 * SSE fan-out of the realtime issue, tests) receive. On globalThis so that every Next.js bundle
 * shares one bus. Delivery is best effort: a failing subscriber never fails the publisher.
 */
export type TMarketUpdate = {
  type: 'market_update';
  data: { marketId: string; yesPrice: number; noPrice: number; yesShares: number; noShares: number; timestamp: string };
};

export type TChannelEvent = TMarketUpdate | { type: string; data: Record<string, unknown> };
export type TChannel = 'markets' | 'feed' | 'breaking-news' | 'upcoming-events' | `chat:${string}`;

type TListener = (channel: TChannel, event: TChannelEvent) => void;

const KEY = Symbol.for('playmoney.events');
type TGlobal = typeof globalThis & { [KEY]?: Set<TListener> };
const listeners = ((globalThis as TGlobal)[KEY] ??= new Set<TListener>());

export const publish = (channel: TChannel, event: TChannelEvent) => {
  for (const l of listeners) {
    try {
      l(channel, event);
    } catch (e) {
      console.error('[events] subscriber failed:', e);
    }
  }
};

/** Subscribes to every channel; returns the unsubscribe function. */
export const subscribe = (listener: TListener) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};
