/** Public shapes of a user. Written by hand so that no column leaks (authSubject, flags). */
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
  profileComplete: boolean;
  onChainRegistered: boolean;
  hasSocialA: boolean;
  hasSocialB: boolean;
  createdAt: string;
  updatedAt: string;
  stats: TUserStats;
  /** Only for the user themself. */
  email?: string | null;
  referralCode?: string;
  isAdmin?: boolean;
  usernameChangedAt?: string | null;
};

export const toUserDto = (u: TUserRow, stats: TUserStats, opts: { self: boolean; isAdmin?: boolean }): TUserDto => {
  const dto: TUserDto = {
    id: u.id,
    username: u.username,
    displayName: u.displayName,
    bio: u.bio,
    profileImageUrl: u.profileImageUrl,
    coverImageUrl: u.coverImageUrl,
    walletAddress: u.walletAddress,
    virtualBalance: toDecimalString(u.virtualBalance),
    lifetimePnL: toNumber(u.lifetimePnL),
    reputationPoints: u.reputationPoints,
    isActor: u.isActor,
    isAgent: u.isAgent,
    profileComplete: u.profileComplete,
    onChainRegistered: u.onChainRegistered,
    hasSocialA: u.hasSocialA,
    hasSocialB: u.hasSocialB,
    createdAt: u.createdAt.toISOString(),
    updatedAt: u.updatedAt.toISOString(),
    stats,
  };
  if (opts.self) {
    dto.email = u.email;
    dto.referralCode = u.referralCode;
    dto.isAdmin = opts.isAdmin ?? u.isAdmin;
    dto.usernameChangedAt = u.usernameChangedAt ? u.usernameChangedAt.toISOString() : null;
  }
  return dto;
};

/** The compact user of search results and lists. */
export const toUserSummary = (u: Pick<TUserRow, 'id' | 'username' | 'displayName' | 'profileImageUrl' | 'reputationPoints' | 'isActor'>) => ({
  id: u.id,
  username: u.username,
  displayName: u.displayName,
  profileImageUrl: u.profileImageUrl,
  reputationPoints: u.reputationPoints,
  isActor: u.isActor,
});
