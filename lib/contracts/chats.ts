/**
 * Chats (specification "Chats and groups"; lib/chats): direct chats (one per pair, ever) and group
 * chats, their messages (newest first, keyset cursor), unread counts and leaving. Members only:
 * anyone else gets 403 NOT_CHAT_MEMBER, an unknown chat 404 CHAT_NOT_FOUND. Messages are delivered
 * live on `chat:{chatId}` as `chat_message {chatId, messageId, senderId, content, timestamp}`.
 * The people a group chat's creator adds are invited (lib/chats/README.md "Invitations"): the chat
 * is in their list marked `membership: "invited"`, without its messages, preview or unread count,
 * and nothing of it reaches them (read, notification, live event) until they accept; they accept or
 * decline once.
 */
import { z } from 'zod';
import { CHAT_PARTICIPANT_STATUSES } from '@/db/schema/chats-values';
import type { TChat, TChatMessage } from '@/lib/chats/dto';
import { ZIdParam, ZSuccess, ZTimestamp, zQueryInt, zText, type TSame } from './common';
import { defineEndpoint } from './endpoint';

export const CHAT_MESSAGE_MAX = 2000;
export const GROUP_CHAT_MAX_PARTICIPANTS = 50;

export const ZChatPerson = z.object({
  id: z.string(),
  username: z.string(),
  displayName: z.string(),
  profileImageUrl: z.string().nullable(),
  isActor: z.boolean(),
});

const ZMembership = z.enum(CHAT_PARTICIPANT_STATUSES);

export const ZChatParticipant = ZChatPerson.extend({
  role: z.enum(['owner', 'member']),
  /** When they joined (for an invited participant: when they were invited). */
  joinedAt: ZTimestamp,
  /** Additive: `invited` until they accept the invitation (then `member`). */
  membership: ZMembership,
});

export const ZChatMessage = z.object({
  id: z.string(),
  chatId: z.string(),
  senderId: z.string(),
  sender: ZChatPerson,
  content: z.string(),
  createdAt: ZTimestamp,
});

// lib/chats/dto.ts owns the message's and the chat's shapes; the schemas document exactly those (common.ts TSame).
export type { TChatMessage };
const _chatMessage: TSame<z.infer<typeof ZChatMessage>, TChatMessage> = true;

export const ZChat = z.object({
  id: z.string(),
  /** A group chat's name; for a direct chat, the other person's display name. */
  name: z.string(),
  isGroup: z.boolean(),
  /** The group this chat belongs to (a group's chat), or null. */
  groupId: z.string().nullable(),
  /** For a direct chat, the other person (null when they left); null for a group chat. */
  otherUser: ZChatPerson.nullable(),
  participants: z.array(ZChatParticipant).describe('the members and invited people (the first 100 for a large group)'),
  participantCount: z.number().int(),
  /** Null for an invitation. */
  lastMessage: ZChatMessage.nullable(),
  /** Messages from others the caller has not read (in GET /api/chats/{id}: as it was when the chat was opened, before it was marked read); 0 for an invitation. */
  unreadCount: z.number().int(),
  /** The last message's time; for an invitation, when the caller was invited. */
  lastActivityAt: ZTimestamp,
  createdAt: ZTimestamp,
  /** Additive: the caller's own standing: `invited` marks an invitation to accept or decline (POST /api/chats/{id}/invitation/accept or /decline). */
  membership: ZMembership,
  /** Additive: for an invitation, who invited the caller (the chat's creator); null otherwise. */
  invitedBy: ZChatPerson.nullable(),
});
export type { TChat };
const _chat: TSame<z.infer<typeof ZChat>, TChat> = true;

const ZChatIdParams = z.object({ id: ZIdParam });
const ZChatAnswer = z.object({ success: ZSuccess, chat: ZChat });
const ZLeaveAnswer = z.object({ success: ZSuccess, chatId: z.string(), left: z.literal(true) });

export const chatsList = defineEndpoint({
  id: 'chats.list',
  method: 'GET',
  path: '/api/chats',
  summary: "The caller's chats, newest activity first, each with its name, participants, last message and unread count; invitations are listed (membership: invited) without messages",
  tag: 'chats',
  auth: 'user',
  requires: ['read'],
  query: z.object({ limit: zQueryInt({ default: 50, min: 1, max: 100 }) }),
  response: z.object({ success: ZSuccess, chats: z.array(ZChat), total: z.number().int() }),
});

export const chatsCreate = defineEndpoint({
  id: 'chats.create',
  method: 'POST',
  path: '/api/chats',
  summary: 'Create a group chat with the caller as owner and the participants invited: each accepts or declines (isGroup false with one participant opens the direct chat instead)',
  tag: 'chats',
  auth: 'user',
  requires: ['social'],
  rateLimit: 'chatCreate',
  body: z.strictObject({
    name: zText({ max: 100, description: 'the group chat name, up to 100 characters (default: the members’ names)' }).optional(),
    isGroup: z.boolean().default(true),
    participantIds: z.array(ZIdParam).min(1).max(GROUP_CHAT_MAX_PARTICIPANTS).describe('the people to invite (the caller joins as owner)'),
  }),
  status: 201,
  response: ZChatAnswer,
  errors: ['USER_NOT_FOUND', 'USER_BLOCKED', 'CANNOT_TARGET_SELF'],
});

export const chatsDm = defineEndpoint({
  id: 'chats.dm',
  method: 'POST',
  path: '/api/chats/dm',
  summary: 'Open the direct chat with a user: created once per pair, returned (and rejoined, with its history) afterwards',
  tag: 'chats',
  auth: 'user',
  requires: ['social'],
  rateLimit: 'chatCreate',
  body: z.strictObject({ participantId: ZIdParam }),
  response: ZChatAnswer.extend({ created: z.boolean().describe('true when this request created the chat') }),
  errors: ['USER_NOT_FOUND', 'USER_BLOCKED', 'CANNOT_TARGET_SELF'],
});

export const chatsGet = defineEndpoint({
  id: 'chats.get',
  method: 'GET',
  path: '/api/chats/{id}',
  summary: 'A chat and its messages, newest first (keyset cursor, stable while messages arrive); marks the chat read. Members only: an invitation not yet accepted is 403 NOT_CHAT_MEMBER',
  tag: 'chats',
  auth: 'user',
  requires: ['read'],
  params: ZChatIdParams,
  query: z.object({ limit: zQueryInt({ default: 50, min: 1, max: 100 }), cursor: z.string().min(1).max(200).optional() }),
  response: z.object({
    success: ZSuccess,
    chat: ZChat,
    messages: z.array(ZChatMessage).describe('newest first'),
    /** Pass as `cursor` for the older page; null when there is none. */
    nextCursor: z.string().nullable(),
    hasMore: z.boolean(),
  }),
  errors: ['CHAT_NOT_FOUND', 'NOT_CHAT_MEMBER'],
});

export const chatsSendMessage = defineEndpoint({
  id: 'chats.sendMessage',
  method: 'POST',
  path: '/api/chats/{id}/message',
  summary: 'Send a message (members only; the same text twice in a row within a minute and floods are refused)',
  tag: 'chats',
  auth: 'user',
  requires: ['social'],
  rateLimit: 'chatMessage',
  params: ZChatIdParams,
  body: z.strictObject({ content: zText({ min: 1, max: CHAT_MESSAGE_MAX, description: `1 to ${CHAT_MESSAGE_MAX} characters as a reader counts them` }) }),
  status: 201,
  response: z.object({ success: ZSuccess, message: ZChatMessage }),
  errors: ['CHAT_NOT_FOUND', 'NOT_CHAT_MEMBER', 'USER_BLOCKED', 'DUPLICATE_MESSAGE', 'MESSAGE_FLOOD'],
});

export const chatsLeave = defineEndpoint({
  id: 'chats.leave',
  method: 'DELETE',
  path: '/api/chats/{id}/participants/me',
  summary: 'Leave a chat (it stays for the others; a direct chat can be reopened with its history)',
  tag: 'chats',
  auth: 'user',
  requires: ['social'],
  params: ZChatIdParams,
  response: ZLeaveAnswer,
  errors: ['CHAT_NOT_FOUND', 'NOT_CHAT_MEMBER', 'FORBIDDEN'],
});

export const chatsLeaveVariant = defineEndpoint({
  id: 'chats.leaveVariant',
  method: 'DELETE',
  path: '/api/chats/{id}/participants',
  summary: 'Leave a chat (variant form of /participants/me)',
  tag: 'chats',
  auth: 'user',
  requires: ['social'],
  params: ZChatIdParams,
  response: ZLeaveAnswer,
  errors: ['CHAT_NOT_FOUND', 'NOT_CHAT_MEMBER', 'FORBIDDEN'],
});

const ZInvitationAnswer = z.object({ success: ZSuccess, chatId: z.string() });

export const chatsAcceptInvitation = defineEndpoint({
  id: 'chats.acceptInvitation',
  method: 'POST',
  path: '/api/chats/{id}/invitation/accept',
  summary: 'Accept an invitation to a group chat: the caller becomes a member and reads it from now on (once; only the invitee)',
  tag: 'chats',
  auth: 'user',
  requires: ['social'],
  params: ZChatIdParams,
  response: ZInvitationAnswer.extend({ chat: ZChat }),
  errors: ['CHAT_NOT_FOUND', 'INVITE_NOT_FOUND', 'INVITE_ALREADY_ANSWERED', 'USER_BLOCKED'],
});

export const chatsDeclineInvitation = defineEndpoint({
  id: 'chats.declineInvitation',
  method: 'POST',
  path: '/api/chats/{id}/invitation/decline',
  summary: 'Decline an invitation to a group chat: the caller is removed from it and it leaves their list (once; only the invitee)',
  tag: 'chats',
  auth: 'user',
  requires: ['social'],
  params: ZChatIdParams,
  response: ZInvitationAnswer.extend({ declined: z.literal(true) }),
  errors: ['CHAT_NOT_FOUND', 'INVITE_NOT_FOUND', 'INVITE_ALREADY_ANSWERED'],
});

export const chatsUnreadCount = defineEndpoint({
  id: 'chats.unreadCount',
  method: 'GET',
  path: '/api/chats/unread-count',
  summary: 'Unread messages: the total and per chat (chats with none are left out)',
  tag: 'chats',
  auth: 'user',
  requires: ['read'],
  response: z.object({
    success: ZSuccess,
    total: z.number().int(),
    chats: z.array(z.object({ chatId: z.string(), unreadCount: z.number().int() })),
  }),
});

export const chatsEndpoints = [
  chatsList,
  chatsCreate,
  chatsDm,
  chatsUnreadCount,
  chatsGet,
  chatsSendMessage,
  chatsAcceptInvitation,
  chatsDeclineInvitation,
  chatsLeave,
  chatsLeaveVariant,
];
