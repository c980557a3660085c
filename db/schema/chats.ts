/**
 * Chats and groups (specification "Chats and groups"; lib/chats, lib/groups). A direct chat has a
 * `dm_key` (the two user ids, sorted) under a unique index, so a pair has one chat, ever, also
 * when both ask at once. Membership is a participant row; leaving deletes it and reopening a DM
 * inserts it again (the history stays with the chat). The people a group chat's creator adds are
 * participants with status `invited` until they accept (declining deletes the row). Messages
 * carry a per-chat `seq` taken under the chat row's lock, so their order is the order their
 * transactions committed in.
 *
 * Groups are communities NPC actors run (lib/game/steps/groups.ts): each has one group chat, a
 * member list and invites (one pending invite per group and person).
 */
import { bigint, boolean, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { CHAT_PARTICIPANT_STATUSES, GROUP_KINDS, GROUP_VISIBILITIES, INVITE_STATUSES } from './chats-values';
import { idColumn, timestamptz } from './columns';
import { organizations } from './world';
import { users } from './users';

export const chats = pgTable(
  'chats',
  {
    id: idColumn(),
    /** Null for a direct chat (each side sees the other's name). */
    name: text('name'),
    isGroup: boolean('is_group').notNull(),
    /** "<smaller id>:<larger id>" for a direct chat; null for a group chat. */
    dmKey: text('dm_key'),
    createdBy: text('created_by')
      .notNull()
      .references(() => users.id),
    /** The last message's seq (0: none yet); sends take the next one under this row's lock. */
    lastSeq: bigint('last_seq', { mode: 'number' }).notNull().default(0),
    /** When the last message was sent (the creation time until then): the listing's order. */
    lastActivityAt: timestamptz('last_activity_at').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  // Null (group chats) never conflicts: a unique index treats nulls as distinct.
  (t) => [uniqueIndex('chats_dm_key_idx').on(t.dmKey)],
);

export const chatParticipants = pgTable(
  'chat_participants',
  {
    chatId: text('chat_id')
      .notNull()
      .references(() => chats.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    role: text('role', { enum: ['owner', 'member'] }).notNull(),
    /**
     * `invited`: added to a group chat by its creator and not yet accepted. An invited participant
     * reads nothing of the chat (no messages, preview, unread count, notification or live event)
     * until they accept; declining deletes the row.
     */
    status: text('status', { enum: CHAT_PARTICIPANT_STATUSES }).notNull().default('member'),
    /** The seq of the last message this member has read (the unread count is last_seq minus this, less their own). */
    lastReadSeq: bigint('last_read_seq', { mode: 'number' }).notNull().default(0),
    joinedAt: timestamptz('joined_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.chatId, t.userId] }), index('chat_participants_user_idx').on(t.userId, t.chatId)],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: idColumn(),
    chatId: text('chat_id')
      .notNull()
      .references(() => chats.id),
    senderId: text('sender_id')
      .notNull()
      .references(() => users.id),
    content: text('content').notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [uniqueIndex('chat_messages_chat_seq_idx').on(t.chatId, t.seq), index('chat_messages_sender_created_idx').on(t.senderId, t.createdAt)],
);

export const groups = pgTable(
  'groups',
  {
    id: idColumn(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    kind: text('kind', { enum: GROUP_KINDS }).notNull(),
    /** open: anyone joins; invite: only with an invite. */
    visibility: text('visibility', { enum: GROUP_VISIBILITIES }).notNull(),
    /** The NPC actor (or player) who runs it. */
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id),
    chatId: text('chat_id')
      .notNull()
      .references(() => chats.id),
    /** The organization an organization group is about (its ticker's traders are invited). */
    organizationId: text('organization_id').references(() => organizations.id),
    /** The actor tier of a tier group (S, A, B, C). */
    tier: text('tier'),
    memberCount: integer('member_count').notNull().default(0),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [uniqueIndex('groups_chat_idx').on(t.chatId)],
);

export const groupMembers = pgTable(
  'group_members',
  {
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    role: text('role', { enum: ['owner', 'member'] }).notNull(),
    joinedAt: timestamptz('joined_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index('group_members_user_idx').on(t.userId)],
);

export const groupInvites = pgTable(
  'group_invites',
  {
    id: idColumn(),
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    invitedBy: text('invited_by')
      .notNull()
      .references(() => users.id),
    /** Why the world invited them (they trade the ticker, they follow the actors). */
    reason: text('reason'),
    status: text('status', { enum: INVITE_STATUSES }).notNull(),
    createdAt: timestamptz('created_at').notNull(),
    respondedAt: timestamptz('responded_at'),
  },
  (t) => [
    // One invite per group and person, ever: a declined one is not sent again.
    uniqueIndex('group_invites_pair_idx').on(t.groupId, t.userId),
    index('group_invites_user_idx').on(t.userId, t.status),
  ],
);

export type TChatRow = typeof chats.$inferSelect;
export type TChatMessageRow = typeof chatMessages.$inferSelect;
export type TGroupRow = typeof groups.$inferSelect;
export type TGroupInviteRow = typeof groupInvites.$inferSelect;
