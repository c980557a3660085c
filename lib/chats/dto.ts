/**
 * The API's chat shapes: a person in a chat, a participant, a message and a chat as its list
 * shows it. Owned here, built by lib/chats/queries.ts; lib/contracts/chats.ts documents them
 * (ZChatPerson, ZChatParticipant, ZChatMessage, ZChat) and checks the two agree. Types only.
 */
import type { CHAT_PARTICIPANT_STATUSES } from '@/db/schema/chats-values';

/** A chat participant's standing: a member, or invited and not yet answered. */
export type TChatMembership = (typeof CHAT_PARTICIPANT_STATUSES)[number];

/** A person inside a chat answer (sender, other person, inviter, group owner). */
export type TChatPerson = { id: string; username: string; displayName: string; profileImageUrl: string | null; isActor: boolean };

export type TChatParticipant = TChatPerson & {
  role: 'owner' | 'member';
  /** When they joined (for an invited participant: when they were invited). */
  joinedAt: string;
  /** `invited` until they accept the invitation (then `member`). */
  membership: TChatMembership;
};

/** A message (timestamps ISO 8601 UTC). */
export type TChatMessage = {
  id: string;
  chatId: string;
  senderId: string;
  sender: TChatPerson;
  content: string;
  createdAt: string;
};

/** A chat as the caller sees it: an invitation has no last message and no unread count. */
export type TChat = {
  id: string;
  /** A group chat's name; for a direct chat, the other person's display name. */
  name: string;
  isGroup: boolean;
  /** The group this chat belongs to (a group's chat), or null. */
  groupId: string | null;
  /** For a direct chat, the other person (null when they left); null for a group chat. */
  otherUser: TChatPerson | null;
  /** The members and invited people (the first 100 for a large group). */
  participants: TChatParticipant[];
  participantCount: number;
  /** Null for an invitation. */
  lastMessage: TChatMessage | null;
  /** Messages from others the caller has not read; 0 for an invitation. */
  unreadCount: number;
  /** The last message's time; for an invitation, when the caller was invited. */
  lastActivityAt: string;
  createdAt: string;
  /** The caller's own standing: `invited` marks an invitation to accept or decline. */
  membership: TChatMembership;
  /** For an invitation, who invited the caller (the chat's creator); null otherwise. */
  invitedBy: TChatPerson | null;
};
