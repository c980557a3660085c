/** Hand-drawn 24px stroke icons (decorative: always aria-hidden). */
import type { ComponentProps, ReactNode } from 'react';

const Icon = ({ children, ...rest }: ComponentProps<'svg'> & { children: ReactNode }) => (
  <svg
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="1.8"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
    focusable="false"
    className="size-5"
    {...rest}
  >
    {children}
  </svg>
);

type TIconProps = Omit<ComponentProps<'svg'>, 'children'>;

export const FeedIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M4 5.5A1.5 1.5 0 0 1 5.5 4h13A1.5 1.5 0 0 1 20 5.5v13a1.5 1.5 0 0 1-1.5 1.5h-13A1.5 1.5 0 0 1 4 18.5z" />
    <path d="M8 9h8M8 12.5h8M8 16h5" />
  </Icon>
);
export const MarketsIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M4 19h16" />
    <path d="m5 15 4-4 3 3 6-7" />
    <path d="M15 7h3v3" />
  </Icon>
);
export const PoolsIcon = (p: TIconProps) => (
  <Icon {...p}>
    <ellipse cx="12" cy="6.5" rx="7" ry="2.5" />
    <path d="M5 6.5v5c0 1.4 3.1 2.5 7 2.5s7-1.1 7-2.5v-5" />
    <path d="M5 11.5v5c0 1.4 3.1 2.5 7 2.5s7-1.1 7-2.5v-5" />
  </Icon>
);
export const LeaderboardIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M9 20V10h6v10M3 20v-6h6M15 20v-8h6v8M2 20h20" />
    <path d="m12 3 .9 1.8 2 .3-1.45 1.4.35 2-1.8-.95-1.8.95.35-2L9.1 5.1l2-.3z" />
  </Icon>
);
/** The leagues' trophy. */
export const LeaguesIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M8 4h8v5a4 4 0 0 1-8 0z" />
    <path d="M8 6H5a3 3 0 0 0 3 4M16 6h3a3 3 0 0 1-3 4" />
    <path d="M12 13v4M8.5 20h7M10 17h4v3h-4z" />
  </Icon>
);
/** Angle brackets and a slash: the developer page. */
export const CodeIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="m8 7-5 5 5 5M16 7l5 5-5 5M13.5 5l-3 14" />
  </Icon>
);
/** The registry's directory card. */
export const RegistryIcon = (p: TIconProps) => (
  <Icon {...p}>
    <rect x="4" y="4" width="16" height="16" rx="2" />
    <circle cx="9.5" cy="10" r="2" />
    <path d="M6.5 16a3 3 0 0 1 6 0M14.5 9h3M14.5 12h3M14.5 15h2" />
  </Icon>
);
export const BellIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M6 16V11a6 6 0 1 1 12 0v5l1.5 2h-15z" />
    <path d="M10 20.5a2 2 0 0 0 4 0" />
  </Icon>
);
export const ChatIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M20 12a7.5 7.5 0 0 1-11.2 6.5L4 20l1.5-4.3A7.5 7.5 0 1 1 20 12z" />
  </Icon>
);
export const UserIcon = (p: TIconProps) => (
  <Icon {...p}>
    <circle cx="12" cy="8" r="4" />
    <path d="M4 20c1.2-3.5 4.2-5 8-5s6.8 1.5 8 5" />
  </Icon>
);
export const WalletIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M4 7.5A2.5 2.5 0 0 1 6.5 5H18v3" />
    <path d="M4 7.5v10A1.5 1.5 0 0 0 5.5 19H20v-11H6.5A2.5 2.5 0 0 1 4 7.5z" />
    <circle cx="16" cy="13.5" r="1.2" fill="currentColor" stroke="none" />
  </Icon>
);
export const MenuIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M4 7h16M4 12h16M4 17h16" />
  </Icon>
);
export const CloseIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M6 6l12 12M18 6 6 18" />
  </Icon>
);
export const SearchIcon = (p: TIconProps) => (
  <Icon {...p}>
    <circle cx="11" cy="11" r="6.5" />
    <path d="m20 20-4.2-4.2" />
  </Icon>
);
export const SparkIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M12 3v4M12 17v4M3 12h4M17 12h4M6 6l2.5 2.5M15.5 15.5 18 18M18 6l-2.5 2.5M8.5 15.5 6 18" />
  </Icon>
);
export const AlertIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M12 4 2.5 20h19z" />
    <path d="M12 10v4.5M12 17.2v.1" />
  </Icon>
);
export const CheckIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="m5 12.5 4.5 4.5L19 7.5" />
  </Icon>
);
export const LogoMark = (p: TIconProps) => (
  <svg viewBox="0 0 32 32" aria-hidden="true" focusable="false" className="size-8" {...p}>
    <rect width="32" height="32" rx="9" fill="var(--color-accent)" />
    <path d="M8 21.5 13 15l4 3.5 7-9" fill="none" stroke="var(--color-canvas)" strokeWidth="2.6" strokeLinecap="round" strokeLinejoin="round" />
    <circle cx="24" cy="9.5" r="2" fill="var(--color-canvas)" />
  </svg>
);
export const ArrowUpIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M12 19V5M6 11l6-6 6 6" />
  </Icon>
);
export const ArrowDownIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M12 5v14M6 13l6 6 6-6" />
  </Icon>
);
export const PortfolioIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M4 8.5A1.5 1.5 0 0 1 5.5 7h13A1.5 1.5 0 0 1 20 8.5v9a1.5 1.5 0 0 1-1.5 1.5h-13A1.5 1.5 0 0 1 4 17.5z" />
    <path d="M9 7V5.5A1.5 1.5 0 0 1 10.5 4h3A1.5 1.5 0 0 1 15 5.5V7M4 12.5h16" />
  </Icon>
);
/** Candlesticks: perpetual futures. */
export const PerpsIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M7 4v3M7 15v5M17 4v5M17 16v4" />
    <rect x="5" y="7" width="4" height="8" rx="1" />
    <rect x="15" y="9" width="4" height="7" rx="1" />
  </Icon>
);
export const HeartIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M12 19.5s-7.5-4.4-7.5-10A4.25 4.25 0 0 1 12 6.8a4.25 4.25 0 0 1 7.5 2.7c0 5.6-7.5 10-7.5 10z" />
  </Icon>
);
/** Two arrows in a loop: sharing (reposting). */
export const RepostIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M17 3.5 20 6.5l-3 3" />
    <path d="M4 11.5v-1a4 4 0 0 1 4-4h12" />
    <path d="M7 20.5l-3-3 3-3" />
    <path d="M20 12.5v1a4 4 0 0 1-4 4H4" />
  </Icon>
);
export const ImageIcon = (p: TIconProps) => (
  <Icon {...p}>
    <rect x="3.5" y="4.5" width="17" height="15" rx="2" />
    <circle cx="9" cy="10" r="1.8" />
    <path d="m4 17.5 5-5 3.5 3.5 2.5-2.5 5 5" />
  </Icon>
);
export const UserPlusIcon = (p: TIconProps) => (
  <Icon {...p}>
    <circle cx="10" cy="8" r="4" />
    <path d="M3 20c1.1-3.4 3.8-5 7-5s5.9 1.6 7 5" />
    <path d="M19 8v6M16 11h6" />
  </Icon>
);
export const AtIcon = (p: TIconProps) => (
  <Icon {...p}>
    <circle cx="12" cy="12" r="3.5" />
    <path d="M15.5 12v1.5a2.5 2.5 0 0 0 5 0V12a8.5 8.5 0 1 0-3.4 6.8" />
  </Icon>
);
export const ReplyIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M9.5 7 4.5 12l5 5" />
    <path d="M4.5 12H14a5.5 5.5 0 0 1 5.5 5.5V19" />
  </Icon>
);
export const HashIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M9 4 7 20M17 4l-2 16M4.5 9h16M3.5 15h16" />
  </Icon>
);
/** Both directions, for a sortable column that is not sorted. */
export const SortIcon = (p: TIconProps) => (
  <Icon {...p}>
    <path d="M8 9l4-4 4 4M8 15l4 4 4-4" />
  </Icon>
);
/** Two people: groups. */
export const UsersIcon = (p: TIconProps) => (
  <Icon {...p}>
    <circle cx="9" cy="8" r="3.5" />
    <path d="M2.5 19.5c1-3.2 3.4-4.7 6.5-4.7s5.5 1.5 6.5 4.7" />
    <path d="M15.5 4.8a3.5 3.5 0 0 1 0 6.4M17.5 14.9c2 .6 3.3 2.1 4 4.6" />
  </Icon>
);
/** A medal: points. */
export const PointsIcon = (p: TIconProps) => (
  <Icon {...p}>
    <circle cx="12" cy="14" r="6" />
    <path d="M8.5 3h7l-2 5.3M8.5 3l2 5.3" />
    <path d="m12 11.2.9 1.8 2 .3-1.45 1.4.35 2-1.8-.95-1.8.95.35-2-1.45-1.4 2-.3z" />
  </Icon>
);
