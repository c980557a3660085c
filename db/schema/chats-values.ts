/** Value lists of the chats and groups tables, shared with the contracts (no drizzle: the browser bundle reads them). */
export const GROUP_KINDS = ['organization', 'tier', 'theme', 'player'] as const;
export const GROUP_VISIBILITIES = ['open', 'invite'] as const;
export const INVITE_STATUSES = ['pending', 'accepted', 'declined'] as const;
/** A chat participant: a member, or invited by the group chat's creator and not yet answered (lib/chats). */
export const CHAT_PARTICIPANT_STATUSES = ['member', 'invited'] as const;
