'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { bindQueryCache } from '@/lib/client/realtime/cache';
import { openRealtimeConnection, type TConnectionState, type TRealtimeConnection } from '@/lib/client/realtime/connection';
import { REALTIME_CHANNELS, type TRealtimeEventData, type TRealtimeEventType } from '@/lib/client/realtime/events';
import { createRealtimeHub, type TRealtimeHub } from '@/lib/client/realtime/hub';
import { chatKeys, getChatsQueryOptions } from '@/lib/client/queries/chats';
import { refetchAnew } from '@/lib/client/refetch';
import { getMeQueryOptions, useSession } from '@/lib/client/queries/users';

export type { TConnectionState };

const RealtimeContext = createContext<TRealtimeHub | null>(null);

const useHub = () => {
  const hub = useContext(RealtimeContext);
  if (!hub) throw new Error('Realtime hooks need <RealtimeProvider> above them.');
  return hub;
};

/**
 * The channels of the page's connection: the public ones, and for a signed-in reader their chats
 * (sorted, so the same chats are the same set), which keep the chat list and the navigation's
 * unread count live for chats that are not open.
 */
const usePageChannels = (): readonly string[] => {
  const session = useSession();
  const chats = useQuery({ ...getChatsQueryOptions(), enabled: session.isSignedIn, select: (d) => d.chats.map((c) => c.id).sort() });
  const ids = session.isSignedIn ? (chats.data ?? []) : [];
  // The reader's own channel: their orders' updates (order_update).
  const own = session.isSignedIn && session.user ? [`user:${session.user.id}`] : [];
  const key = [...own, ...ids].join(',');
  const [channels, setChannels] = useState<{ key: string; list: readonly string[] }>({ key: '', list: REALTIME_CHANNELS });
  if (channels.key !== key) setChannels({ key, list: [...REALTIME_CHANNELS, ...own, ...ids.map((id) => `chat:${id}`)] });
  return channels.list;
};

/**
 * The page's one live connection (all public channels, the reader's own channel and chats), opened after mount so nothing touches
 * `window` on the server, and kept across client-side navigations because the provider sits in
 * the root layout. Live prices and news go straight into the query cache; components listen
 * with useRealtimeEvent. Must sit inside the QueryClientProvider.
 */
export const RealtimeProvider = ({ children }: { children: ReactNode }) => {
  const qc = useQueryClient();
  const [hub] = useState(() => createRealtimeHub());
  const channels = usePageChannels();
  const connectionRef = useRef<TRealtimeConnection | null>(null);
  const channelsRef = useRef(channels);

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
      channels: channelsRef.current,
      onEvent: hub.emit,
      onState: hub.setState,
      onReconnect: hub.emitReconnect,
      isOnline: () => navigator.onLine,
    });
    const onOffline = () => connection.goOffline();
    const onOnline = () => connection.goOnline();
    window.addEventListener('offline', onOffline);
    window.addEventListener('online', onOnline);
    connectionRef.current = connection;
    return () => {
      window.removeEventListener('offline', onOffline);
      window.removeEventListener('online', onOnline);
      connectionRef.current = null;
      connection.close();
    };
  }, [hub]);

  // The reader's chats came or went: the same connection follows them (resuming, nothing lost).
  useEffect(() => {
    channelsRef.current = channels;
    connectionRef.current?.setChannels(channels);
  }, [channels]);

  // Someone else's message in any of the reader's chats: the list and the unread count follow now;
  // after a gap in the stream, and when it opens, they are read again.
  useEffect(() => {
    // Anew: the page's first read of them may still be in flight, asked before the message.
    const refresh = () => void refetchAnew(qc, chatKeys.list(), chatKeys.unread());
    const offMessage = hub.on('chat_message', (data) => {
      if (data.senderId !== qc.getQueryData(getMeQueryOptions().queryKey)?.id) refresh();
    });
    const offReconnect = hub.onReconnect(refresh);
    // Each time the stream is open (the first time too): a message that came between the first
    // read and the subscription to its chat is counted.
    const offState = hub.subscribeState(() => {
      if (hub.getState() === 'open') refresh();
    });
    return () => {
      offMessage();
      offReconnect();
      offState();
    };
  }, [hub, qc]);

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
