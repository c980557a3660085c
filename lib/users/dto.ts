/** Public shapes of a user. Written by hand so that no column leaks (authSubject, flags). */
import type { TAccountNumbers } from '@/lib/ledger/account-numbers';
import type { TUserRow } from '@/db/schema';
import { toDecimalString, toNumber } from '@/lib/money/decimal';

export type TUserStats = {
  followersCount: number;
  followingCount: number;
  postsCount: number;
  tradesCount: number;
  lifetimePnL: number;
  winRate: number;
  totalTrades: number;
  reputationPoints: number;
  referralCount: number;
  followers: number;
  following: number;
  posts: number;
  positions: number;
  comments: number;
  reactions: number;
};

export type TUserDto = {
  id: string;
  username: string;
  displayName: string;
  bio: string | null;
  profileImageUrl: string | null;
  coverImageUrl: string | null;
  walletAddress: string | null;
  virtualBalance: string;
  lifetimePnL: number;
  reputationPoints: number;
  isActor: boolean;
  isAgent: boolean;
  /** An agent account, or one that traded through an API key (lib/api-keys): a bot badge. */
  isBot: boolean;
  profileComplete: boolean;
  onChainRegistered: boolean;
  hasSocialA: boolean;
  hasSocialB: boolean;
  /** Linked handles, shown when their owner made them public (always to the owner). */
  socialAUsername: string | null;
  socialBUsername: string | null;
  createdAt: string;
  updatedAt: string;
  stats: TUserStats;
  /** Only for the user themself: equity and P&L (lib/equity). */
  account?: TAccountNumbers;
  /** Only for the user themself. */
  email?: string | null;
  referralCode?: string;
  isAdmin?: boolean;
  isModerator?: boolean;
  isBanned?: boolean;
  usernameChangedAt?: string | null;
  showSocialAPublic?: boolean;
  showSocialBPublic?: boolean;
  showWalletPublic?: boolean;
};

export type TSocialHandles = { social_a?: string; social_b?: string };

export function toUserDto(
  u: TUserRow,
  stats: TUserStats,
  opts: { self: boolean; isAdmin?: boolean; isModerator?: boolean; social?: TSocialHandles },): TUserDto {
  const visible = (shown: boolean, value: string | null | undefined) => (opts.self || shown ? (value ?? null) : null);
  const dto: TUserDto = {
    id: u.id,
    username: u.username,
    displayName: u.displayName,
    bio: u.bio,
    profileImageUrl: u.profileImageUrl,
    coverImageUrl: u.coverImageUrl,
    walletAddress: visible(u.showWalletPublic, u.walletAddress),
    virtualBalance: toDecimalString(u.virtualBalance),
    lifetimePnL: toNumber(u.lifetimePnL),
    reputationPoints: u.reputationPoints,
    isActor: u.isActor,
    isAgent: u.isAgent,
    isBot: !u.isActor && (u.isAgent || u.botSince !== null),
    profileComplete: u.profileComplete,
    onChainRegistered: u.onChainRegistered,
    hasSocialA: u.hasSocialA,
    hasSocialB: u.hasSocialB,
    socialAUsername: visible(u.showSocialAPublic, opts.social?.social_a),
    socialBUsername: visible(u.showSocialBPublic, opts.social?.social_b),
    createdAt: u.createdAt.toISOString(),
    updatedAt: u.updatedAt.toISOString(),
    stats,
  };
  if (opts.self) {
    dto.email = u.email;
    dto.referralCode = u.referralCode;
    dto.isAdmin = opts.isAdmin ?? u.isAdmin;
    dto.isModerator = opts.isModerator ?? (dto.isAdmin || u.isModerator);
    dto.isBanned = u.isBanned;
    dto.usernameChangedAt = u.usernameChangedAt ? u.usernameChangedAt.toISOString() : null;
    dto.showSocialAPublic = u.showSocialAPublic;
    dto.showSocialBPublic = u.showSocialBPublic;
    dto.showWalletPublic = u.showWalletPublic;
  }
  return dto;
}

/** The four fields that name a user inside another answer (a repost's sharer, a trade's trader). */
export type TUserName = { id: string; username: string; displayName: string; profileImageUrl: string | null };

/** ZUserSummary: the name and the standing (authors of posts and comments, search results, favorites). */
export type TUserSummary = TUserName & { reputationPoints: number; isActor: boolean };

/**
 * The name and whether the user is an NPC actor, without reputation: chat senders and
 * participants, group owners and members, league and leaderboard entries, follow lists.
 */
export type TUserPerson = TUserName & { isActor: boolean };

/**
 * A user inside another answer: the one place these fields are mapped, so every answer names a
 * user the same way. The full summary (ZUserSummary) by default; `{ reputation: false }` for the
 * contracts that show the name and the actor flag (TUserPerson); `{ nameOnly: true }` for those
 * that show only the name (reposts, trades), whose queries select only those columns. Extra
 * fields of `u` (a joined row's other columns) are left out.
 */
export function toUserSummary(u: TUserSummary): TUserSummary;
export function toUserSummary(u: TUserPerson, opts: { reputation: false }): TUserPerson;
export function toUserSummary(u: TUserName, opts: { nameOnly: true }): TUserName;
export function toUserSummary(
  u: TUserName & Partial<TUserSummary>,
  opts?: { nameOnly: true } | { reputation: false },
): TUserName | TUserPerson | TUserSummary {
  const name: TUserName = { id: u.id, username: u.username, displayName: u.displayName, profileImageUrl: u.profileImageUrl };
  if (opts && 'nameOnly' in opts) return name;
  if (opts && 'reputation' in opts) return { ...name, isActor: u.isActor! };
  return { ...name, reputationPoints: u.reputationPoints!, isActor: u.isActor! };
}

/** A user's columns as a raw SQL query selects them (`u.username, u.display_name, …`). */
export type TUserColumns = { username: string; display_name: string; profile_image_url: string | null; is_actor: boolean };

/**
 * toUserSummary for a raw SQL row: `id` is whichever column the query named the user's id by
 * (author_id, user_id, sender_id). The full summary needs `reputation_points`, which drivers may
 * answer as text; `{ reputation: false }` gives TUserPerson and reads no reputation.
 */
export function userSummaryOfRow(id: string, r: TUserColumns & { reputation_points: number | string }): TUserSummary;
export function userSummaryOfRow(id: string, r: TUserColumns, opts: { reputation: false }): TUserPerson;
export function userSummaryOfRow(
  id: string,
  r: TUserColumns & { reputation_points?: number | string },
  opts?: { reputation: false },
): TUserPerson | TUserSummary {
  const person: TUserPerson = { id, username: r.username, displayName: r.display_name, profileImageUrl: r.profile_image_url, isActor: r.is_actor };
  return opts ? toUserSummary(person, opts) : toUserSummary({ ...person, reputationPoints: Number(r.reputation_points) });
}
