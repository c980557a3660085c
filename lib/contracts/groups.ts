/**
 * Groups (specification "Chats and groups"; lib/groups): communities NPC actors run, one per
 * organization, per actor tier and per theme, each with a group chat. Open groups are joined
 * directly; invite-only ones need an invite (the game tick invites players whose trades and
 * follows fit). Joining makes one a member of the group's chat; leaving leaves it.
 */
import { z } from 'zod';
import { GROUP_KINDS, GROUP_VISIBILITIES, INVITE_STATUSES } from '@/db/schema/chats-values';
import { ZChatMessage, ZChatPerson } from './chats';
import type { TGroup, TGroupInvite } from '@/lib/groups/dto';
import { ZIdParam, ZSuccess, ZTimestamp, zQueryInt, type TSame } from './common';
import { defineEndpoint } from './endpoint';

export const ZGroup = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  kind: z.enum(GROUP_KINDS),
  /** open: anyone joins; invite: an invite is needed. */
  visibility: z.enum(GROUP_VISIBILITIES),
  owner: ZChatPerson,
  chatId: z.string(),
  organization: z.object({ id: z.string(), name: z.string(), ticker: z.string() }).nullable(),
  tier: z.string().nullable(),
  memberCount: z.number().int(),
  /** Whether the caller is a member (false when signed out). */
  isMember: z.boolean(),
  /** Whether the caller holds a pending invite to it. */
  hasPendingInvite: z.boolean(),
  createdAt: ZTimestamp,
});

// lib/groups/dto.ts owns the group's and the invite's shapes; the schemas document exactly those (common.ts TSame).
export type { TGroup };
const _group: TSame<z.infer<typeof ZGroup>, TGroup> = true;

export const ZGroupInvite = z.object({
  id: z.string(),
  group: ZGroup,
  invitedBy: ZChatPerson,
  reason: z.string().nullable(),
  status: z.enum(INVITE_STATUSES),
  createdAt: ZTimestamp,
  respondedAt: ZTimestamp.nullable(),
});
export type { TGroupInvite };
const _groupInvite: TSame<z.infer<typeof ZGroupInvite>, TGroupInvite> = true;

const ZGroupIdParams = z.object({ groupId: ZIdParam });
const ZInviteIdParams = z.object({ inviteId: ZIdParam });
const ZGroupList = z.object({ success: ZSuccess, groups: z.array(ZGroup), total: z.number().int() });

export const groupsList = defineEndpoint({
  id: 'groups.list',
  method: 'GET',
  path: '/api/groups',
  summary: 'Groups to discover (open and invite-only), largest first, with member counts; search by name',
  tag: 'groups',
  auth: 'public',
  requires: ['read'],
  reads: 'replica',
  query: z.object({
    search: z.string().trim().max(100).optional(),
    limit: zQueryInt({ default: 50, min: 1, max: 100 }),
    offset: zQueryInt({ default: 0, min: 0, max: 100_000 }),
  }),
  response: ZGroupList,
});

export const groupsMine = defineEndpoint({
  id: 'groups.mine',
  method: 'GET',
  path: '/api/user-groups',
  summary: "The caller's groups",
  tag: 'groups',
  auth: 'user',
  requires: ['read'],
  response: ZGroupList,
});

export const groupsInvites = defineEndpoint({
  id: 'groups.invites',
  method: 'GET',
  path: '/api/groups/invites',
  summary: "The caller's pending group invites, newest first",
  tag: 'groups',
  auth: 'user',
  requires: ['read'],
  response: z.object({ success: ZSuccess, invites: z.array(ZGroupInvite) }),
});

export const groupsGet = defineEndpoint({
  id: 'groups.get',
  method: 'GET',
  path: '/api/groups/{groupId}',
  summary: 'A group with its members; members also get its recent messages',
  tag: 'groups',
  auth: 'public',
  requires: ['read'],
  params: ZGroupIdParams,
  response: z.object({
    success: ZSuccess,
    group: ZGroup,
    members: z.array(ZChatPerson.extend({ role: z.enum(['owner', 'member']), joinedAt: ZTimestamp })).describe('the first 100, owner first'),
    /** Newest first, the last 20; empty for anyone who is not a member. */
    recentMessages: z.array(ZChatMessage),
  }),
  errors: ['GROUP_NOT_FOUND'],
});

export const groupsJoin = defineEndpoint({
  id: 'groups.join',
  method: 'POST',
  path: '/api/groups/{groupId}/members',
  summary: 'Join a group (open groups directly; invite-only ones accept the pending invite) and its chat',
  tag: 'groups',
  auth: 'user',
  requires: ['social'],
  params: ZGroupIdParams,
  response: z.object({ success: ZSuccess, group: ZGroup }),
  errors: ['GROUP_NOT_FOUND', 'INVITE_REQUIRED', 'ALREADY_MEMBER', 'USER_BLOCKED'],
});

export const groupsLeave = defineEndpoint({
  id: 'groups.leave',
  method: 'DELETE',
  path: '/api/groups/{groupId}/members',
  summary: 'Leave a group and its chat (its owner cannot)',
  tag: 'groups',
  auth: 'user',
  requires: ['social'],
  params: ZGroupIdParams,
  response: z.object({ success: ZSuccess, groupId: z.string(), left: z.literal(true) }),
  errors: ['GROUP_NOT_FOUND', 'NOT_GROUP_MEMBER', 'FORBIDDEN'],
});

const ZInviteAnswer = z.object({ success: ZSuccess, invite: ZGroupInvite });

export const groupsAcceptInvite = defineEndpoint({
  id: 'groups.acceptInvite',
  method: 'POST',
  path: '/api/groups/invites/{inviteId}/accept',
  summary: 'Accept an invite: join the group and its chat (once; only the invitee)',
  tag: 'groups',
  auth: 'user',
  requires: ['social'],
  params: ZInviteIdParams,
  response: ZInviteAnswer,
  errors: ['INVITE_NOT_FOUND', 'INVITE_ALREADY_ANSWERED', 'USER_BLOCKED'],
});

export const groupsDeclineInvite = defineEndpoint({
  id: 'groups.declineInvite',
  method: 'POST',
  path: '/api/groups/invites/{inviteId}/decline',
  summary: 'Decline an invite (once; only the invitee; the group does not invite again)',
  tag: 'groups',
  auth: 'user',
  requires: ['social'],
  params: ZInviteIdParams,
  response: ZInviteAnswer,
  errors: ['INVITE_NOT_FOUND', 'INVITE_ALREADY_ANSWERED'],
});

export const groupsEndpoints = [groupsList, groupsMine, groupsInvites, groupsGet, groupsJoin, groupsLeave, groupsAcceptInvite, groupsDeclineInvite];
