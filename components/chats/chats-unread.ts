'use client';

/**
 * The unread chat messages of the signed-in user, as the navigation shows them (the Chats link's
 * pill and accessible name). Polled, and reloaded whenever an open conversation gets a message.
 */
import { useChatUnreadCount } from '@/lib/client/queries/chats';
import { useSession } from '@/lib/client/queries/users';

/** Unread chat messages over all chats; 0 while signed out or unknown. */
export const useChatsUnreadTotal = () => {
  const session = useSession();
  const unread = useChatUnreadCount({ isEnabled: session.isSignedIn });
  return session.isSignedIn ? (unread.data ?? 0) : 0;
};

/** "Chats, 3 unread": the accessible name of a link to the chats. */
export const chatsLinkName = (count: number) => (count > 0 ? `Chats, ${count} unread` : 'Chats');

/**
 * The unread count a chat row shows: none for the open conversation, which is being read (its
 * count may lag a poll behind the read marker) — the badge must not stay on while it is open.
 */
export const rowUnreadCount = (unreadCount: number, isOpen: boolean) => (isOpen ? 0 : unreadCount);
