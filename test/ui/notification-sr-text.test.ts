/**
 * Issue 35 rough edges, pure: a notification's screen-reader text starts with what it is ("Order
 * filled, unread: …", "Direct message from Ada, unread: …", never "(Announcement, unread)" for a
 * message), and the chat list shows no unread badge on the conversation that is open.
 */
import { describe, expect, it } from 'vitest';
import { rowUnreadCount } from '@/components/chats/chats-unread';
import { notificationKindText } from '@/components/notifications/notification-list';
import type { TNotification } from '@/lib/contracts/notifications';

const base: TNotification = {
  id: 'n1',
  type: 'system',
  actorId: null,
  actor: null,
  postId: null,
  commentId: null,
  title: 'Limit order filled',
  message: 'Your limit order bought 10 YES shares',
  read: false,
  createdAt: '2026-11-28T10:00:00.000Z',
  kind: 'order_filled',
  link: '/markets/m1',
};
const ada = { username: 'ada', displayName: 'Ada', profileImageUrl: null };

describe('notificationKindText', () => {
  it('names the kind first, then whether it is unread', () => {
    expect(notificationKindText(base)).toBe('Order filled, unread: ');
    expect(notificationKindText({ ...base, read: true })).toBe('Order filled: ');
    expect(notificationKindText({ ...base, kind: 'payout', title: 'Payout: 12.00' })).toBe('Payout, unread: ');
  });
  it('announces a direct message as one, from its sender, not as an announcement', () => {
    const dm = { ...base, kind: null, link: null, actorId: 'u1', actor: ada, title: 'New message from @ada', message: 'hi' };
    expect(notificationKindText(dm)).toBe('Direct message from Ada, unread: ');
    expect(notificationKindText({ ...dm, title: 'New message in Traders' })).toBe('Group message from Ada, unread: ');
  });
  it('names social notifications and their actor, and keeps "Announcement" for other system ones', () => {
    expect(notificationKindText({ ...base, type: 'reaction', kind: null, actorId: 'u1', actor: ada, title: 'New like' })).toBe('Like from Ada, unread: ');
    expect(notificationKindText({ ...base, kind: null, title: 'Welcome', read: true })).toBe('Announcement: ');
  });
});

describe('rowUnreadCount', () => {
  it('hides the unread badge of the open conversation only', () => {
    expect(rowUnreadCount(3, true)).toBe(0);
    expect(rowUnreadCount(3, false)).toBe(3);
    expect(rowUnreadCount(0, false)).toBe(0);
  });
});
