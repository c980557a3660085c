/** How chats name times, people and previews. Pure: no I/O. */
import type { TChat, TChatMessage } from '@/lib/client/queries/chats';

const timeOnly = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });
const dayAndTime = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
const fullDateTime = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' });

const isSameDay = (a: Date, b: Date) => a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();

/** "3:04 PM" today, "Mar 4, 3:04 PM" this year, the full date before. */
export const formatMessageTime = (iso: string, nowMs = Date.now()) => {
  const at = new Date(iso);
  const now = new Date(nowMs);
  if (isSameDay(at, now)) return timeOnly.format(at);
  if (at.getFullYear() === now.getFullYear()) return dayAndTime.format(at);
  return fullDateTime.format(at);
};

export const personName = (p: { displayName: string; username: string }) => p.displayName || p.username || 'Someone';

/** The list row's preview: "You: …", "Alice: …" in a group, the text alone in a direct chat; an invitation has none. */
export const previewOf = (chat: Pick<TChat, 'isGroup' | 'lastMessage'> & Partial<Pick<TChat, 'membership' | 'invitedBy'>>, myUserId: string | undefined) => {
  if (chat.membership === 'invited') return chat.invitedBy ? `${personName(chat.invitedBy)} invited you` : 'You are invited';
  const m: TChatMessage | null = chat.lastMessage;
  if (!m) return 'No messages yet';
  const text = m.content.replace(/\s+/g, ' ').trim();
  if (m.senderId === myUserId) return `You: ${text}`;
  return chat.isGroup ? `${personName(m.sender)}: ${text}` : text;
};

/** A chat's name as shown: the server's, else (a direct chat with someone who has no display name) their @username. */
export const chatTitle = (chat: Pick<TChat, 'name' | 'isGroup' | 'otherUser'>) =>
  chat.name.trim() || (chat.otherUser ? `@${chat.otherUser.username}` : chat.isGroup ? 'Group chat' : 'Direct chat');
