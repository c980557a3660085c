import type { ReactNode } from 'react';
import {
  BellIcon,
  ChatIcon,
  CodeIcon,
  FeedIcon,
  LeaderboardIcon,
  LeaguesIcon,
  MarketsIcon,
  PerpsIcon,
  PointsIcon,
  PoolsIcon,
  PortfolioIcon,
  RegistryIcon,
  SparkIcon,
  UserIcon,
  UserPlusIcon,
  UsersIcon,
  WalletIcon,
} from '@/components/ui/icons';

export type TNavItem = { href: string; label: string; icon: ReactNode };

export const NAV_ITEMS: readonly TNavItem[] = [
  { href: '/', label: 'Feed', icon: <FeedIcon /> },
  { href: '/markets', label: 'Markets', icon: <MarketsIcon /> },
  { href: '/perps', label: 'Perps', icon: <PerpsIcon /> },
  { href: '/portfolio', label: 'Portfolio', icon: <PortfolioIcon /> },
  { href: '/pools', label: 'Pools', icon: <PoolsIcon /> },
  { href: '/leaderboard', label: 'Leaderboard', icon: <LeaderboardIcon /> },
  { href: '/leagues', label: 'Leagues', icon: <LeaguesIcon /> },
  { href: '/notifications', label: 'Notifications', icon: <BellIcon /> },
  { href: '/chats', label: 'Chats', icon: <ChatIcon /> },
  { href: '/groups', label: 'Groups', icon: <UsersIcon /> },
  { href: '/profile', label: 'Profile', icon: <UserIcon /> },
  { href: '/wallet', label: 'Wallet', icon: <WalletIcon /> },
  { href: '/points', label: 'Points', icon: <PointsIcon /> },
  { href: '/referrals', label: 'Referrals', icon: <UserPlusIcon /> },
  { href: '/registry', label: 'Registry', icon: <RegistryIcon /> },
  { href: '/developers', label: 'Developers', icon: <CodeIcon /> },
  { href: '/status', label: 'Status', icon: <SparkIcon /> },
];

/**
 * The phone's bottom tab bar: the five pages players use most (the feed, the two ways to trade,
 * what they hold, their chats); the menu holds the rest, the account summary their profile.
 */
export const TAB_ITEMS = NAV_ITEMS.filter((i) => ['/', '/markets', '/perps', '/portfolio', '/chats'].includes(i.href));

/** "/profile/edit" keeps "Profile" highlighted; "/" matches only itself. */
export const isActivePath = (pathname: string, href: string) =>
  href === '/' ? pathname === '/' : pathname === href || pathname.startsWith(`${href}/`);
