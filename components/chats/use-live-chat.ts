'use client';

/**
 * A conversation's live stream: one EventSource on `chat:{chatId}` (a members-only channel, so
 * not on the page's public connection) while the conversation is on screen. Messages go into the
 * cache at once; someone else's message marks the chat read again shortly after (the reader is
 * looking at it) and the navigation's count follows. When the stream opens, and after each
 * reconnect, the conversation reloads once: a message sent before the stream was open, or while
 * it was away, is not lost.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { receiveChatMessage, refreshChat, useMarkChatRead, type TChatMessage } from '@/lib/client/queries/chats';
import { openRealtimeConnection } from '@/lib/client/realtime/connection';

/** How long a burst of incoming messages waits before one read mark. */
const MARK_READ_DELAY_MS = 800;

export const useLiveChat = (
  chatId: string,
  { myUserId, isEnabled, onMessage }: { myUserId: string | undefined; isEnabled: boolean; onMessage?: (message: TChatMessage) => void },
) => {
  const qc = useQueryClient();
  const markRead = useMarkChatRead(chatId);
  const latest = useRef({ myUserId, onMessage, markRead: markRead.mutate });
  useEffect(() => {
    latest.current = { myUserId, onMessage, markRead: markRead.mutate };
  });

  useEffect(() => {
    if (!isEnabled || !chatId || typeof EventSource === 'undefined') return;
    let readTimer: ReturnType<typeof setTimeout> | null = null;
    let hasOpened = false;
    const connection = openRealtimeConnection({
      channels: [`chat:${chatId}`],
      onEvent: (event) => {
        if (event.type !== 'chat_message' || event.data.chatId !== chatId) return;
        const { myUserId: me, onMessage: notify, markRead: mark } = latest.current;
        const message = receiveChatMessage(qc, event.data, { myUserId: me });
        notify?.(message);
        if (event.data.senderId === me) return;
        if (readTimer) clearTimeout(readTimer);
        readTimer = setTimeout(() => {
          readTimer = null;
          mark();
        }, MARK_READ_DELAY_MS);
      },
      onState: (state) => {
        if (state !== 'open' || hasOpened) return;
        hasOpened = true;
        void refreshChat(qc, chatId);
      },
      onReconnect: () => void refreshChat(qc, chatId),
      isOnline: () => navigator.onLine,
    });
    const onOffline = () => connection.goOffline();
    const onOnline = () => connection.goOnline();
    window.addEventListener('offline', onOffline);
    window.addEventListener('online', onOnline);
    return () => {
      if (readTimer) clearTimeout(readTimer);
      window.removeEventListener('offline', onOffline);
      window.removeEventListener('online', onOnline);
      connection.close();
    };
  }, [qc, chatId, isEnabled]);
};
