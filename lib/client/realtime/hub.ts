/**
 * The page's one dispatcher between the connection and everything that listens: handlers by
 * event type, reconnect handlers, and the connection state as an external store (for React's
 * useSyncExternalStore). A failing handler is logged and never stops the others. Pure: no I/O.
 */
import type { TConnectionState } from './connection';
import type { TRealtimeEvent, TRealtimeEventData, TRealtimeEventType } from './events';

type THandler = (data: never) => void;

export type TRealtimeHub = {
  on: <K extends TRealtimeEventType>(type: K, handler: (data: TRealtimeEventData<K>) => void) => () => void;
  onReconnect: (handler: () => void) => () => void;
  emit: (event: TRealtimeEvent) => void;
  emitReconnect: () => void;
  getState: () => TConnectionState;
  setState: (state: TConnectionState) => void;
  subscribeState: (listener: () => void) => () => void;
};

const safely = (fn: () => void) => {
  try {
    fn();
  } catch (e) {
    console.error('[realtime] handler failed:', e);
  }
};

export function createRealtimeHub(initial: TConnectionState = 'connecting'): TRealtimeHub {
  const handlers = new Map<TRealtimeEventType, Set<THandler>>();
  const reconnectHandlers = new Set<() => void>();
  const stateListeners = new Set<() => void>();
  let state = initial;

  return {
    on: (type, handler) => {
      const set = handlers.get(type) ?? new Set<THandler>();
      handlers.set(type, set);
      set.add(handler as THandler);
      return () => {
        set.delete(handler as THandler);
      };
    },
    onReconnect: (handler) => {
      reconnectHandlers.add(handler);
      return () => {
        reconnectHandlers.delete(handler);
      };
    },
    emit: (event) => {
      // A copy: a handler may unsubscribe (a component unmounting) while we iterate.
      for (const h of [...(handlers.get(event.type) ?? [])]) safely(() => (h as (d: unknown) => void)(event.data));
    },
    emitReconnect: () => {
      for (const h of [...reconnectHandlers]) safely(h);
    },
    getState: () => state,
    setState: (next) => {
      if (next === state) return;
      state = next;
      for (const l of [...stateListeners]) safely(l);
    },
    subscribeState: (listener) => {
      stateListeners.add(listener);
      return () => {
        stateListeners.delete(listener);
      };
    },
  };
}
