/**
 * The API's group shapes: a group as one reader sees it and an invite to one. Owned here, built by
 * lib/groups/queries.ts and service/read-groups.ts; lib/contracts/groups.ts documents them (ZGroup,
 * ZGroupInvite) and checks the two agree. Types only.
 */
import type { GROUP_KINDS, GROUP_VISIBILITIES, INVITE_STATUSES } from '@/db/schema/chats-values';
import type { TChatPerson } from '@/lib/chats/dto';

/** A group as one reader sees it (timestamps ISO 8601 UTC). */
export type TGroup = {
  id: string;
  name: string;
  description: string;
  kind: (typeof GROUP_KINDS)[number];
  /** open: anyone joins; invite: an invite is needed. */
  visibility: (typeof GROUP_VISIBILITIES)[number];
  owner: TChatPerson;
  chatId: string;
  organization: { id: string; name: string; ticker: string } | null;
  tier: string | null;
  memberCount: number;
  /** Whether the caller is a member (false when signed out). */
  isMember: boolean;
  /** Whether the caller holds a pending invite to it. */
  hasPendingInvite: boolean;
  createdAt: string;
};

/** An invite to a group, as its invitee sees it. */
export type TGroupInvite = {
  id: string;
  group: TGroup;
  invitedBy: TChatPerson;
  reason: string | null;
  status: (typeof INVITE_STATUSES)[number];
  createdAt: string;
  respondedAt: string | null;
};
