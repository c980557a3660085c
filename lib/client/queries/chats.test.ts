import { describe, expect, it } from 'vitest';
import {
  addChatMessage,
  applyMessageToChatList,
  CHAT_MESSAGE_MAX,
  firstUnreadMessageId,
  flattenChatMessages,
  isChatInvitation,
  measureMessage,
  messageFromEvent,
  secondsUntilRetry,
  type TChat,
  type TChatMessage,
  type TChatPage,
} from './chats';

const person = (id: string) => ({ id, username: `user_${id}`, displayName: `User ${id}`, profileImageUrl: null, isActor: false });

const message = (id: string, senderId: string, minute: number, chatId = 'c1'): TChatMessage => ({
  id,
  chatId,
  senderId,
  sender: person(senderId),
  content: `message ${id}`,
  createdAt: new Date(Date.UTC(2026, 0, 1, 12, minute)).toISOString(),
});

const chat = (id: string, over: Partial<TChat> = {}): TChat => ({
  id,
  name: `Chat ${id}`,
  isGroup: false,
  groupId: null,
  otherUser: person('b'),
  participants: [
    { ...person('a'), role: 'owner', joinedAt: '2026-01-01T00:00:00.000Z', membership: 'member' },
    { ...person('b'), role: 'member', joinedAt: '2026-01-01T00:00:00.000Z', membership: 'member' },
  ],
  participantCount: 2,
  lastMessage: null,
  unreadCount: 0,
  lastActivityAt: '2026-01-01T00:00:00.000Z',
  createdAt: '2026-01-01T00:00:00.000Z',
  membership: 'member',
  invitedBy: null,
  ...over,
});

/** Pages as the server sends them: newest page first, each newest first. */
const pages = (...lists: TChatMessage[][]) => ({
  pages: lists.map((messages, i): TChatPage => ({
    success: true,
    chat: chat('c1', { lastMessage: lists[0]![0] ?? null }),
    messages,
    nextCursor: i < lists.length - 1 ? `cur${i}` : null,
    hasMore: i < lists.length - 1,
  })),
  pageParams: lists.map((_, i) => (i === 0 ? undefined : `cur${i - 1}`)),
});

const ids = (data: ReturnType<typeof pages> | undefined) => data?.pages.map((p) => p.messages.map((m) => m.id));

describe('addChatMessage', () => {
  it('puts a new message at the top of the newest page and makes it the last message', () => {
    const data = pages([message('3', 'b', 3), message('2', 'a', 2)], [message('1', 'b', 1)]);
    const out = addChatMessage(data, message('4', 'b', 4));
    expect(ids(out)).toEqual([['4', '3', '2'], ['1']]);
    expect(out!.pages[0]!.chat.lastMessage?.id).toBe('4');
    expect(out!.pageParams).toEqual(data.pageParams);
  });

  it('adds a message once: the send answer and the live event with the same id leave one copy', () => {
    const data = pages([message('2', 'a', 2)], [message('1', 'b', 1)]);
    const once = addChatMessage(data, message('3', 'a', 3));
    const twice = addChatMessage(once, message('3', 'a', 3));
    expect(twice).toBe(once);
    expect(ids(twice)).toEqual([['3', '2'], ['1']]);
    // Already in an older page: nothing changes either.
    expect(addChatMessage(data, message('1', 'b', 1))).toBe(data);
  });

  it('keeps the pages newest first when a message arrives late, and a tie goes in front', () => {
    const data = pages([message('5', 'b', 5), message('3', 'a', 3)]);
    const late = addChatMessage(data, message('4', 'a', 4));
    expect(ids(late)).toEqual([['5', '4', '3']]);
    expect(late!.pages[0]!.chat.lastMessage?.id).toBe('5');
    const tie = addChatMessage(data, message('5b', 'a', 5));
    expect(ids(tie)).toEqual([['5b', '5', '3']]);
    const oldest = addChatMessage(data, message('0', 'a', 0));
    expect(ids(oldest)).toEqual([['5', '3', '0']]);
  });

  it('leaves a conversation that is not loaded alone', () => {
    expect(addChatMessage(undefined, message('1', 'a', 1))).toBeUndefined();
  });
});

describe('flattenChatMessages', () => {
  it('reads the pages oldest first, each message once', () => {
    const data = pages([message('4', 'a', 4), message('3', 'b', 3)], [message('3', 'b', 3), message('2', 'a', 2), message('1', 'b', 1)]);
    expect(flattenChatMessages(data).map((m) => m.id)).toEqual(['1', '2', '3', '4']);
    expect(flattenChatMessages(undefined)).toEqual([]);
  });
});

describe('messageFromEvent', () => {
  const participants = chat('c1').participants;
  it('names the sender from the participants', () => {
    const { message: m, isSenderKnown } = messageFromEvent({ chatId: 'c1', messageId: 'm1', senderId: 'b', content: 'hi', timestamp: '2026-01-01T12:00:00.000Z' }, participants);
    expect(isSenderKnown).toBe(true);
    expect(m).toMatchObject({ id: 'm1', chatId: 'c1', senderId: 'b', content: 'hi', createdAt: '2026-01-01T12:00:00.000Z' });
    expect(m.sender.username).toBe('user_b');
  });
  it('says when the sender is not among the participants it knows', () => {
    const { message: m, isSenderKnown } = messageFromEvent({ chatId: 'c1', messageId: 'm1', senderId: 'z', content: 'hi', timestamp: '2026-01-01T12:00:00.000Z' }, participants);
    expect(isSenderKnown).toBe(false);
    expect(m.sender.id).toBe('z');
  });
});

describe('firstUnreadMessageId', () => {
  const list = [message('1', 'b', 1), message('2', 'a', 2), message('3', 'b', 3), message('4', 'a', 4), message('5', 'b', 5)];
  it("counts back over the others' messages only", () => {
    expect(firstUnreadMessageId(list, 1, 'a')).toBe('5');
    expect(firstUnreadMessageId(list, 2, 'a')).toBe('3');
    expect(firstUnreadMessageId(list, 3, 'a')).toBe('1');
  });
  it('is null with nothing unread, or when the first unread one is not loaded', () => {
    expect(firstUnreadMessageId(list, 0, 'a')).toBeNull();
    expect(firstUnreadMessageId(list, 4, 'a')).toBeNull();
  });
});

describe('applyMessageToChatList', () => {
  const list = { success: true as const, chats: [chat('c0'), chat('c1', { unreadCount: 2 })], total: 2 };
  it('moves the chat to the top with its new last message, counting it unread when the chat is not open', () => {
    const out = applyMessageToChatList(list, message('9', 'b', 9, 'c1'), { myUserId: 'a', isOpen: false });
    expect(out!.chats.map((c) => c.id)).toEqual(['c1', 'c0']);
    expect(out!.chats[0]!.lastMessage?.id).toBe('9');
    expect(out!.chats[0]!.unreadCount).toBe(3);
  });
  it('does not count one’s own message or a message in the open chat, and applies a message once', () => {
    const mine = applyMessageToChatList(list, message('9', 'a', 9, 'c1'), { myUserId: 'a', isOpen: false });
    expect(mine!.chats[0]!.unreadCount).toBe(2);
    const open = applyMessageToChatList(list, message('9', 'b', 9, 'c1'), { myUserId: 'a', isOpen: true });
    expect(open!.chats[0]!.unreadCount).toBe(0);
    const again = applyMessageToChatList(open, message('9', 'b', 9, 'c1'), { myUserId: 'a', isOpen: false });
    expect(again).toBe(open);
  });
  it('leaves the list alone for a chat it does not hold', () => {
    expect(applyMessageToChatList(list, message('9', 'b', 9, 'elsewhere'), { myUserId: 'a', isOpen: false })).toBe(list);
  });
});

describe('measureMessage', () => {
  it('counts trimmed characters as a reader sees them', () => {
    expect(measureMessage('  hi  ')).toMatchObject({ length: 2, isEmpty: false, isOver: false, isNearLimit: false });
    expect(measureMessage('   ').isEmpty).toBe(true);
    expect(measureMessage('👍🏽').length).toBe(1);
  });
  it('is near the limit in the last 200 characters and over past it', () => {
    expect(measureMessage('x'.repeat(CHAT_MESSAGE_MAX - 200)).isNearLimit).toBe(true);
    expect(measureMessage('x'.repeat(CHAT_MESSAGE_MAX)).isOver).toBe(false);
    expect(measureMessage('x'.repeat(CHAT_MESSAGE_MAX + 1)).isOver).toBe(true);
  });
});

describe('secondsUntilRetry', () => {
  it('reads the wait from a MESSAGE_FLOOD’s retryAt, at least one second', () => {
    const now = Date.UTC(2026, 0, 1, 12, 0, 0);
    expect(secondsUntilRetry({ retryAt: new Date(now + 4_200).toISOString() }, now)).toBe(5);
    expect(secondsUntilRetry({ retryAt: new Date(now - 1_000).toISOString() }, now)).toBe(1);
    expect(secondsUntilRetry({}, now)).toBeNull();
    expect(secondsUntilRetry(undefined, now)).toBeNull();
  });
});

describe('isChatInvitation', () => {
  it('is true only for a chat the caller is invited to and has not answered', () => {
    expect(isChatInvitation(chat('c1'))).toBe(false);
    expect(isChatInvitation(chat('c2', { isGroup: true, membership: 'invited', invitedBy: person('a') }))).toBe(true);
  });
});
