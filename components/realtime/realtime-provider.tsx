'use client';

import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { bindQueryCache } from '@/lib/client/realtime/cache';
import { openRealtimeConnection, type TConnectionState } from '@/lib/client/realtime/connection';
import { REALTIME_CHANNELS, type TRealtimeEventData, type TRealtimeEventType } from '@/lib/client/realtime/events';
import { createRealtimeHub, type TRealtimeHub } from '@/lib/client/realtime/hub';
import { getMeQueryOptions } from '@/lib/client/queries/users';

export type { TConnectionState };

const RealtimeContext = createContext<TRealtimeHub | null>(null);

const useHub = () => {
  const hub = useContext(RealtimeContext);
  if (!hub) throw new Error('Realtime hooks need <RealtimeProvider> above them.');
  return hub;
};

/**
 * The page's one live connection (all public channels), opened after mount so nothing touches
 * `window` on the server, and kept across client-side navigations because the provider sits in
 * the root layout. Live prices and news go straight into the query cache; components listen
 * with useRealtimeEvent. Must sit inside the QueryClientProvider.
 */
export const RealtimeProvider = ({ children }: { children: ReactNode }) => {
  const qc = useQueryClient();
  const [hub] = useState(() => createRealtimeHub());

  useEffect(
    () => bindQueryCache(hub, qc, { getUserId: () => qc.getQueryData(getMeQueryOptions().queryKey)?.id }),
    [hub, qc],
  );

  useEffect(() => {
    if (typeof EventSource === 'undefined') {
      hub.setState('offline');
      return;
    }
    const connection = openRealtimeConnection({
      channels: REALTIME_CHANNELS,
      onEvent: hub.emit,
      onState: hub.setState,
      onReconnect: hub.emitReconnect,
      isOnline: () => navigator.onLine,
    });
    const onOffline = () => connection.goOffline();
    const onOnline = () => connection.goOnline();
    window.addEventListener('offline', onOffline);
    window.addEventListener('online', onOnline);
    return () => {
      window.removeEventListener('offline', onOffline);
      window.removeEventListener('online', onOnline);
      connection.close();
    };
  }, [hub]);

  return <RealtimeContext.Provider value={hub}>{children}</RealtimeContext.Provider>;
};

/**
 * Calls `handler` with the data of every live event of `type` while the component is mounted.
 * The handler may change every render; the subscription does not.
 */
export const useRealtimeEvent = <K extends TRealtimeEventType>(type: K, handler: (data: TRealtimeEventData<K>) => void) => {
  const hub = useHub();
  const ref = useRef(handler);
  useEffect(() => {
    ref.current = handler;
  });
  useEffect(() => hub.on(type, (data) => ref.current(data)), [hub, type]);
};

/** Calls `handler` each time the stream comes back after a drop (not on the first open). */
export const useRealtimeReconnect = (handler: () => void) => {
  const hub = useHub();
  const ref = useRef(handler);
  useEffect(() => {
    ref.current = handler;
  });
  useEffect(() => hub.onReconnect(() => ref.current()), [hub]);
};

const serverState = (): TConnectionState => 'connecting';

/** 'connecting' | 'open' | 'reconnecting' | 'offline'; 'connecting' while rendering on the server. */
export const useConnectionState = () => {
  const hub = useHub();
  return useSyncExternalStore(hub.subscribeState, hub.getState, serverState);
};
