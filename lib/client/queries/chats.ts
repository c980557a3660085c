/**
 * Chats in the browser: the caller's chats, one chat's messages (an infinite query going back in
 * time with the server's keyset cursor), opening a direct chat, creating a group chat, answering
 * an invitation to one, sending, leaving and the unread count of the navigation. queryOptions factories own every query key;
 * hooks and invalidations go through them. Live messages (`chat_message` on `chat:{chatId}`) are
 * merged into the cached pages by id, so a message that arrives both as the send's answer and as
 * an event shows once.
 * Pure helpers (merging, flattening, the unread divider, the length check) do no I/O. I/O: the
 * typed client only.
 */
import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import { flattenUnique } from '@/lib/client/pages';
import { api } from '@/lib/client/api';
import {
  CHAT_MESSAGE_MAX,
  chatsAcceptInvitation,
  chatsCreate,
  chatsDeclineInvitation,
  chatsDm,
  chatsGet,
  chatsLeave,
  chatsList,
  chatsSendMessage,
  chatsUnreadCount,
  type TChat,
  type TChatMessage,
} from '@/lib/contracts/chats';
import type { TEndpointResponse } from '@/lib/contracts/endpoint';
import { visibleLength } from '@/lib/posts/text';
import type { TRealtimeEventData } from '@/lib/client/realtime/events';
import type { TErrorMessages } from './errors';

export type { TChat, TChatMessage };
export { CHAT_MESSAGE_MAX };
export type TChatPage = TEndpointResponse<typeof chatsGet>;
export type TChatList = TEndpointResponse<typeof chatsList>;
export type TChatPerson = TChat['participants'][number];
export type TChatMessageEvent = TRealtimeEventData<'chat_message'>;
type TChatPages = InfiniteData<TChatPage, unknown>;

/**
 * The keys of chat queries. Exported for the groups module (joining or leaving a group changes
 * the caller's chats); components never use keys.
 */
export const chatKeys = {
  all: ['chats'] as const,
  list: () => [...chatKeys.all, 'list'] as const,
  detail: (chatId: string) => [...chatKeys.all, 'detail', chatId] as const,
  unread: () => [...chatKeys.all, 'unread'] as const,
};

/** Messages per page of a conversation. */
export const CHAT_PAGE_SIZE = 30;
export const CHATS_LIST_LIMIT = 50;
/** How often the chat list and the navigation's unread count look again while a page is open. */
export const CHATS_REFETCH_MS = 30_000;

// ---------------------------------------------------------------------------------------------
// The caller's chats and the unread count

export function getChatsQueryOptions() {
  return queryOptions({
    queryKey: chatKeys.list(),
    queryFn: () => api(chatsList, { query: { limit: CHATS_LIST_LIMIT } }),
  });
}

/** The caller's chats, newest activity first; idle while signed out. */
export function useChats({ isEnabled = true }: { isEnabled?: boolean } = {}) {
  return useQuery({ ...getChatsQueryOptions(), enabled: isEnabled, refetchInterval: CHATS_REFETCH_MS });
}

export function getChatUnreadCountQueryOptions() {
  return queryOptions({
    queryKey: chatKeys.unread(),
    queryFn: async () => (await api(chatsUnreadCount)).total,
    staleTime: 5_000,
  });
}

/** Unread messages over all chats, for the navigation; idle while signed out. */
export function useChatUnreadCount({ isEnabled = true }: { isEnabled?: boolean } = {}) {
  return useQuery({ ...getChatUnreadCountQueryOptions(), enabled: isEnabled, refetchInterval: CHATS_REFETCH_MS });
}

// ---------------------------------------------------------------------------------------------
// One chat and its messages

/**
 * The chat and its messages, newest page first; each next page is older (the server's cursor).
 * Every fetch marks the chat read on the server.
 */
export function getChatQueryOptions(chatId: string) {
  return infiniteQueryOptions({
    queryKey: chatKeys.detail(chatId),
    queryFn: async ({ pageParam, client }) => {
      const page = await api(chatsGet, { params: { id: chatId }, query: { limit: CHAT_PAGE_SIZE, cursor: pageParam } });
      // The server marked the chat read: the list and the navigation's count follow.
      if (pageParam === undefined) markReadInCache(client, chatId);
      return page;
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.hasMore && last.nextCursor ? last.nextCursor : undefined),
  });
}

export function useChat(chatId: string, { isEnabled = true }: { isEnabled?: boolean } = {}) {
  return useInfiniteQuery({ ...getChatQueryOptions(chatId), enabled: !!chatId && isEnabled });
}

/** The chat shows as read in the list, and the navigation's count reloads. */
const markReadInCache = (qc: QueryClient, chatId: string) => {
  qc.setQueryData(getChatsQueryOptions().queryKey, (list) =>
    list?.chats.some((c) => c.id === chatId && c.unreadCount > 0)
      ? { ...list, chats: list.chats.map((c) => (c.id === chatId ? { ...c, unreadCount: 0 } : c)) }
      : list,
  );
  void qc.invalidateQueries({ queryKey: chatKeys.unread() });
};


/** How many unread messages the cached chat list gives a chat (0 when unknown): read before opening it. */
export function cachedUnreadCount(qc: QueryClient, chatId: string) {
  return qc.getQueryData(getChatsQueryOptions().queryKey)?.chats.find((c) => c.id === chatId)?.unreadCount ?? 0;
}

/** A message's place in time (ISO text compares in time order only when both parse: compare numbers). */
const timeOf = (m: TChatMessage) => Date.parse(m.createdAt) || 0;

/**
 * `data` with `message` in it once: nothing changes when a loaded page already holds its id;
 * otherwise it goes into the newest page before the first message not newer than it (a tie goes in
 * front: it arrived later), so the pages stay newest first. The chat's last message follows.
 */
export function addChatMessage<D extends TChatPages>(data: D | undefined, message: TChatMessage): D | undefined {
  if (!data || data.pages.length === 0) return data;
  if (data.pages.some((p) => p.messages.some((m) => m.id === message.id))) return data;
  const [head, ...rest] = data.pages;
  const at = head!.messages.findIndex((m) => timeOf(m) <= timeOf(message));
  const messages = at === -1 ? [...head!.messages, message] : [...head!.messages.slice(0, at), message, ...head!.messages.slice(at)];
  const last = head!.chat.lastMessage;
  const chat = !last || timeOf(last) <= timeOf(message) ? { ...head!.chat, lastMessage: message, lastActivityAt: message.createdAt } : head!.chat;
  return { ...data, pages: [{ ...head!, chat, messages }, ...rest] };
}

/** The loaded messages oldest first (as a conversation reads), each once. */
export function flattenChatMessages(data: TChatPages | undefined): TChatMessage[] {
  if (!data) return [];
  return flattenUnique(data.pages, (page) => page.messages, (m) => m.id).reverse();
}

/**
 * A live `chat_message` as a message of the conversation: the sender's name and picture come
 * from the chat's participants. `isSenderKnown` is false for someone not in that list (they
 * joined since it loaded): the caller reloads the chat to learn who they are.
 */
export function messageFromEvent(event: TChatMessageEvent, participants: readonly TChatPerson[]): { message: TChatMessage; isSenderKnown: boolean } {
  const person = participants.find((p) => p.id === event.senderId);
  const sender = person
    ? { id: person.id, username: person.username, displayName: person.displayName, profileImageUrl: person.profileImageUrl, isActor: person.isActor }
    : { id: event.senderId, username: '', displayName: 'Someone', profileImageUrl: null, isActor: false };
  return {
    message: { id: event.messageId, chatId: event.chatId, senderId: event.senderId, sender, content: event.content, createdAt: event.timestamp },
    isSenderKnown: !!person,
  };
}

/**
 * The id of the oldest unread message, where "New messages" is drawn: the `unreadCount`-th
 * newest message from someone else (the server counts only theirs). Null when nothing is unread
 * or the unread messages go back further than what is loaded.
 */
export function firstUnreadMessageId(messagesOldestFirst: readonly TChatMessage[], unreadCount: number, myUserId: string | undefined): string | null {
  if (unreadCount <= 0) return null;
  let seen = 0;
  for (let i = messagesOldestFirst.length - 1; i >= 0; i--) {
    const m = messagesOldestFirst[i]!;
    if (m.senderId === myUserId) continue;
    seen += 1;
    if (seen === unreadCount) return m.id;
  }
  return null;
}

/**
 * The chat list after a message: that chat gets it as its last message and moves to the top;
 * someone else's message in a chat that is not open counts as unread. Unknown chats are left for
 * the next fetch.
 */
export function applyMessageToChatList(
  list: TChatList | undefined,
  message: TChatMessage,
  { myUserId, isOpen }: { myUserId: string | undefined; isOpen: boolean },): TChatList | undefined {
  const chat = list?.chats.find((c) => c.id === message.chatId);
  if (!list || !chat) return list;
  if (chat.lastMessage?.id === message.id) return list;
  const isUnread = !isOpen && message.senderId !== myUserId;
  const updated: TChat = {
    ...chat,
    lastMessage: message,
    lastActivityAt: message.createdAt,
    unreadCount: isOpen ? 0 : chat.unreadCount + (isUnread ? 1 : 0),
  };
  return { ...list, chats: [updated, ...list.chats.filter((c) => c.id !== chat.id)] };
}

/** Puts a message into the open conversation's pages and the chat list at once. */
export function putChatMessage(qc: QueryClient, message: TChatMessage, { myUserId, isOpen }: { myUserId: string | undefined; isOpen: boolean }) {
  qc.setQueryData(getChatQueryOptions(message.chatId).queryKey, (data) => addChatMessage(data, message));
  qc.setQueryData(getChatsQueryOptions().queryKey, (list) => applyMessageToChatList(list, message, { myUserId, isOpen }));
}

/**
 * A live `chat_message` of the open conversation into the cache; a sender the chat does not know
 * yet (they joined since it loaded) has the chat reload to name them. Answers the message.
 */
export function receiveChatMessage(qc: QueryClient, event: TChatMessageEvent, { myUserId }: { myUserId: string | undefined }) {
  const participants = qc.getQueryData(getChatQueryOptions(event.chatId).queryKey)?.pages[0]?.chat.participants ?? [];
  const { message, isSenderKnown } = messageFromEvent(event, participants);
  putChatMessage(qc, message, { myUserId, isOpen: true });
  if (!isSenderKnown) void qc.invalidateQueries({ queryKey: chatKeys.detail(event.chatId) });
  return message;
}

/** Reloads an open conversation: what a live stream may have missed (before it opened, or while it was away). */
export function refreshChat(qc: QueryClient, chatId: string) {
  return Promise.all([qc.invalidateQueries({ queryKey: chatKeys.detail(chatId) }), qc.invalidateQueries({ queryKey: chatKeys.list() })]);
}

// ---------------------------------------------------------------------------------------------
// Writing

export type TMessageLength = { length: number; isEmpty: boolean; isOver: boolean; isNearLimit: boolean };

/** The counter shows from here on (the limit matters only for long messages). */
export const CHAT_COUNTER_FROM = CHAT_MESSAGE_MAX - 200;

/** A draft's length as the server counts it (trimmed, characters as a reader sees them). */
export function measureMessage(content: string): TMessageLength {
  const length = visibleLength(content.trim());
  return { length, isEmpty: length === 0, isOver: length > CHAT_MESSAGE_MAX, isNearLimit: length >= CHAT_COUNTER_FROM };
}

/** Sends a message; the answer goes into the conversation and the chat list at once. */
export function useSendMessage(chatId: string, { myUserId }: { myUserId: string | undefined }) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (content: string) => (await api(chatsSendMessage, { params: { id: chatId }, body: { content: content.trim() } })).message,
    onSuccess: (message) => putChatMessage(qc, message, { myUserId, isOpen: true }),
    // Not a member any more, or the chat is gone: what is on screen is stale.
    onError: () => void qc.invalidateQueries({ queryKey: chatKeys.list() }),
  });
}

/**
 * Marks a chat read while it is open (a live message arrived): a one-message read of the chat,
 * kept out of the cache, then the list and the navigation's count follow.
 */
export function useMarkChatRead(chatId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api(chatsGet, { params: { id: chatId }, query: { limit: 1 } }),
    onSuccess: () => markReadInCache(qc, chatId),
  });
}

/** Opens (or reopens) the direct chat with a user; answers the chat. */
export function useOpenDirectChat() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (participantId: string) => (await api(chatsDm, { body: { participantId } })).chat,
    onSuccess: () => qc.invalidateQueries({ queryKey: chatKeys.list() }),
  });
}

/** Creates a group chat with the caller as owner; answers the chat. */
export function useCreateGroupChat() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ name, participantIds }: { name?: string; participantIds: string[] }) =>
      (await api(chatsCreate, { body: { ...(name?.trim() ? { name: name.trim() } : {}), isGroup: true, participantIds } })).chat,
    onSuccess: () => qc.invalidateQueries({ queryKey: chatKeys.list() }),
  });
}

/** Whether a chat of the list is an invitation the caller has not answered (nothing of it can be read yet). */
export function isChatInvitation(chat: Pick<TChat, 'membership'>) {
  return chat.membership === 'invited';
}

/** Accepts an invitation to a group chat: it becomes one of the caller's chats (answers the chat). */
export function useAcceptChatInvitation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (chatId: string) => (await api(chatsAcceptInvitation, { params: { id: chatId } })).chat,
    onSuccess: async (chat) => {
      qc.setQueryData(getChatsQueryOptions().queryKey, (list) => (list ? { ...list, chats: list.chats.map((c) => (c.id === chat.id ? chat : c)) } : list));
      // A refusal cached while it was an invitation is stale now: an open conversation loads again.
      await qc.resetQueries({ queryKey: chatKeys.detail(chat.id) });
      await Promise.all([qc.invalidateQueries({ queryKey: chatKeys.list() }), qc.invalidateQueries({ queryKey: chatKeys.unread() })]);
    },
    // Answered elsewhere (another tab) or gone: what is shown is stale.
    onError: () => void qc.invalidateQueries({ queryKey: chatKeys.list() }),
  });
}

/** Declines an invitation to a group chat: it leaves the list. */
export function useDeclineChatInvitation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (chatId: string) => api(chatsDeclineInvitation, { params: { id: chatId } }),
    onSuccess: async (_res, chatId) => {
      qc.setQueryData(getChatsQueryOptions().queryKey, (list) => (list ? { ...list, chats: list.chats.filter((c) => c.id !== chatId), total: Math.max(0, list.total - 1) } : list));
      qc.removeQueries({ queryKey: chatKeys.detail(chatId) });
      await qc.invalidateQueries({ queryKey: chatKeys.list() });
    },
    onError: () => void qc.invalidateQueries({ queryKey: chatKeys.list() }),
  });
}

/** Leaves a chat: it goes from the list, its cached messages go stale, and the count follows. */
export function useLeaveChat() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (chatId: string) => api(chatsLeave, { params: { id: chatId } }),
    onSuccess: async (_res, chatId) => {
      qc.setQueryData(getChatsQueryOptions().queryKey, (list) => (list ? { ...list, chats: list.chats.filter((c) => c.id !== chatId), total: Math.max(0, list.total - 1) } : list));
      // Marked stale without a refetch: the conversation on screen is about to go (a refetch would only be refused).
      void qc.invalidateQueries({ queryKey: chatKeys.detail(chatId), refetchType: 'none' });
      await Promise.all([qc.invalidateQueries({ queryKey: chatKeys.list() }), qc.invalidateQueries({ queryKey: chatKeys.unread() })]);
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Errors

/** Whole seconds until a MESSAGE_FLOOD's `retryAt` (details), or null when it does not say. */
export function secondsUntilRetry(details: Record<string, unknown> | undefined, nowMs = Date.now()) {
  const at = typeof details?.retryAt === 'string' ? Date.parse(details.retryAt) : Number.NaN;
  return Number.isFinite(at) ? Math.max(1, Math.ceil((at - nowMs) / 1000)) : null;
}

/** The sentences a failed chat action shows: describeError(error, CHAT_ERROR_MESSAGES). */
export const CHAT_ERROR_MESSAGES: TErrorMessages = {
  CHAT_NOT_FOUND: 'This chat does not exist any more.',
  NOT_CHAT_MEMBER: (e) => (e.details?.invitation === true ? 'You are invited to this chat: accept the invitation to read it.' : 'You are not a member of this chat.'),
  INVITE_NOT_FOUND: 'This invitation is no longer open.',
  INVITE_ALREADY_ANSWERED: 'You already answered this invitation.',
  USER_BLOCKED: 'You cannot message this player: one of you has blocked the other.',
  USER_NOT_FOUND: 'We could not find that player.',
  CANNOT_TARGET_SELF: 'You cannot start a chat with yourself.',
  DUPLICATE_MESSAGE: 'You just sent that.',
  MESSAGE_FLOOD: (e) => {
    const wait = secondsUntilRetry(e.details);
    return wait ? `You are sending messages too quickly. Wait ${wait} s and try again.` : 'You are sending messages too quickly. Wait a few seconds and try again.';
  },
  RATE_LIMIT_EXCEEDED: 'You are going a little fast. Wait a moment and try again.',
  USER_BANNED: 'Your account is banned: you can read, but not send messages.',
};

/** What a refused message shows (the composer). */
export const SEND_MESSAGE_ERROR_MESSAGES: TErrorMessages = {
  ...CHAT_ERROR_MESSAGES,
  VALIDATION_ERROR: `A message is 1 to ${CHAT_MESSAGE_MAX} characters.`,
};
