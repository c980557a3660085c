/**
 * Groups in the browser: groups to discover (searchable), the caller's groups and pending
 * invites, one group with its members, joining, leaving and answering invites. Joining or
 * leaving a group joins or leaves its chat, so the caller's chats reload too. queryOptions
 * factories own every query key; hooks and invalidations go through them and through the chats
 * factories. I/O: the typed client only.
 */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '@/lib/client/api';
import type { TEndpointResponse } from '@/lib/contracts/endpoint';
import {
  groupsAcceptInvite,
  groupsDeclineInvite,
  groupsGet,
  groupsInvites,
  groupsJoin,
  groupsLeave,
  groupsList,
  groupsMine,
  type TGroup,
  type TGroupInvite,
} from '@/lib/contracts/groups';
import { chatKeys } from './chats';
import type { TErrorMessages } from './errors';

export type { TGroup, TGroupInvite };
export type TGroupDetail = TEndpointResponse<typeof groupsGet>;
export type TGroupMember = TGroupDetail['members'][number];

const keys = {
  all: ['groups'] as const,
  lists: () => [...keys.all, 'list'] as const,
  list: (search: string) => [...keys.lists(), search.trim().toLowerCase()] as const,
  mine: () => [...keys.all, 'mine'] as const,
  invites: () => [...keys.all, 'invites'] as const,
  detail: (groupId: string) => [...keys.all, 'detail', groupId] as const,
};

export const GROUPS_LIST_LIMIT = 50;

export function getGroupsQueryOptions(search: string) {
  return queryOptions({
    queryKey: keys.list(search),
    queryFn: () => api(groupsList, { query: { limit: GROUPS_LIST_LIMIT, ...(search.trim() ? { search: search.trim() } : {}) } }),
  });
}

/** Groups to discover, largest first; the previous result stays while a new search loads. */
export function useGroups(search: string) {
  return useQuery({ ...getGroupsQueryOptions(search), placeholderData: keepPreviousData });
}

export function getMyGroupsQueryOptions() {
  return queryOptions({ queryKey: keys.mine(), queryFn: () => api(groupsMine) });
}

/** The caller's groups; idle while signed out. */
export function useMyGroups({ isEnabled = true }: { isEnabled?: boolean } = {}) {
  return useQuery({ ...getMyGroupsQueryOptions(), enabled: isEnabled });
}

export function getGroupInvitesQueryOptions() {
  return queryOptions({ queryKey: keys.invites(), queryFn: async () => (await api(groupsInvites)).invites });
}

/** The caller's pending invites, newest first; idle while signed out. */
export function useGroupInvites({ isEnabled = true }: { isEnabled?: boolean } = {}) {
  return useQuery({ ...getGroupInvitesQueryOptions(), enabled: isEnabled });
}

export function getGroupQueryOptions(groupId: string) {
  return queryOptions({ queryKey: keys.detail(groupId), queryFn: () => api(groupsGet, { params: { groupId } }) });
}

/** A group with its members (and, for members, its recent messages). */
export function useGroup(groupId: string) {
  return useQuery({ ...getGroupQueryOptions(groupId), enabled: !!groupId });
}

/** Puts a group's new state into every cached list row and its page. */
const putGroup = (qc: QueryClient, group: TGroup) => {
  qc.setQueriesData<TEndpointResponse<typeof groupsList>>({ queryKey: keys.lists() }, (list) =>
    list?.groups.some((g) => g.id === group.id) ? { ...list, groups: list.groups.map((g) => (g.id === group.id ? group : g)) } : list,
  );
  qc.setQueryData(keys.detail(group.id), (detail: TGroupDetail | undefined) => (detail ? { ...detail, group } : detail));
};

/** Membership changed: every group view and the caller's chats reload. */
const refreshAfterMembership = (qc: QueryClient) =>
  Promise.all([qc.invalidateQueries({ queryKey: keys.all }), qc.invalidateQueries({ queryKey: chatKeys.list() }), qc.invalidateQueries({ queryKey: chatKeys.unread() })]);

/** Joins a group (an open one, or an invite-only one with a pending invite) and its chat. */
export function useJoinGroup() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (groupId: string) => (await api(groupsJoin, { params: { groupId } })).group,
    onSuccess: async (group) => {
      putGroup(qc, group);
      await refreshAfterMembership(qc);
    },
    // Already a member (another tab) or the invite is gone: what is shown is stale.
    onError: () => void qc.invalidateQueries({ queryKey: keys.all }),
  });
}

/** Leaves a group and its chat (its owner cannot). */
export function useLeaveGroup() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (group: TGroup) => api(groupsLeave, { params: { groupId: group.id } }),
    onSuccess: async (_res, group) => {
      putGroup(qc, { ...group, isMember: false, memberCount: Math.max(0, group.memberCount - 1) });
      // Stale without a refetch: the group's conversation leaves the page (a refetch would only be refused).
      void qc.invalidateQueries({ queryKey: chatKeys.detail(group.chatId), refetchType: 'none' });
      await refreshAfterMembership(qc);
    },
    onError: () => void qc.invalidateQueries({ queryKey: keys.all }),
  });
}

const answerInvite = (qc: QueryClient, inviteId: string) =>
  qc.setQueryData(keys.invites(), (invites: TGroupInvite[] | undefined) => invites?.filter((i) => i.id !== inviteId));

/** Accepts an invite: the caller joins the group and its chat. */
export function useAcceptInvite() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (inviteId: string) => (await api(groupsAcceptInvite, { params: { inviteId } })).invite,
    onSuccess: async (invite) => {
      answerInvite(qc, invite.id);
      putGroup(qc, { ...invite.group, isMember: true, hasPendingInvite: false });
      await refreshAfterMembership(qc);
    },
    onError: () => void qc.invalidateQueries({ queryKey: keys.invites() }),
  });
}

/** Declines an invite (the group does not ask again). */
export function useDeclineInvite() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (inviteId: string) => (await api(groupsDeclineInvite, { params: { inviteId } })).invite,
    onSuccess: async (invite) => {
      answerInvite(qc, invite.id);
      await qc.invalidateQueries({ queryKey: keys.all });
    },
    onError: () => void qc.invalidateQueries({ queryKey: keys.invites() }),
  });
}

/** What a group's join button can do for the caller. */
export type TJoinState = 'member' | 'owner' | 'join' | 'accept' | 'invite-only';

export function joinStateOf(group: Pick<TGroup, 'isMember' | 'visibility' | 'hasPendingInvite' | 'owner'>, myUserId: string | undefined): TJoinState {
  if (group.isMember) return group.owner.id === myUserId ? 'owner' : 'member';
  if (group.hasPendingInvite) return 'accept';
  return group.visibility === 'open' ? 'join' : 'invite-only';
}

/** The sentences a failed group action shows: describeError(error, GROUP_ERROR_MESSAGES). */
export const GROUP_ERROR_MESSAGES: TErrorMessages = {
  GROUP_NOT_FOUND: 'This group does not exist any more.',
  INVITE_REQUIRED: 'This group is invite-only: you need an invite to join.',
  ALREADY_MEMBER: 'You are already a member of this group.',
  NOT_GROUP_MEMBER: 'You are not a member of this group any more.',
  FORBIDDEN: 'The owner of a group cannot leave it.',
  USER_BLOCKED: 'You cannot join: there is a block between you and the group’s owner.',
  INVITE_NOT_FOUND: 'This invite does not exist any more.',
  INVITE_ALREADY_ANSWERED: 'You already answered this invite.',
  RATE_LIMIT_EXCEEDED: 'You are going a little fast. Wait a moment and try again.',
  USER_BANNED: 'Your account is banned: you can read, but not join groups.',
};
