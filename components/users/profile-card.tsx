import type { ReactNode } from 'react';
import { Avatar } from '@/components/ui/avatar';
import { Badge } from '@/components/ui/badge';
import { BotBadge } from '@/components/ui/bot-badge';
import { Card } from '@/components/ui/card';
import { formatCount, formatMonthYear } from '@/components/ui/format';
import type { TUser } from '@/lib/contracts/users';

type TStat = { label: string; value: number };

const statsOf = (user: TUser): TStat[] => [
  { label: 'Followers', value: user.stats.followersCount },
  { label: 'Following', value: user.stats.followingCount },
  { label: 'Posts', value: user.stats.postsCount },
  { label: 'Trades', value: user.stats.tradesCount },
  { label: 'Points', value: user.reputationPoints },
  { label: 'Referrals', value: user.stats.referralCount },
];

export const StatsGrid = ({ user }: { user: TUser }) => (
  <dl className="grid grid-cols-3 gap-px overflow-hidden rounded-2xl border border-line bg-line sm:grid-cols-6">
    {statsOf(user).map((s) => (
      <div key={s.label} className="flex flex-col-reverse gap-1 bg-surface px-3 py-4 text-center">
        <dt className="text-xs text-ink-muted">{s.label}</dt>
        <dd className="text-lg font-semibold text-ink tabular-nums">{formatCount(s.value)}</dd>
      </div>
    ))}
  </dl>
);

/** Linked handles and the wallet, when the API sends them (it leaves out what the owner hides). */
const LinkedIdentities = ({ user }: { user: TUser }) => {
  const items = [
    user.socialAUsername ? { label: 'social_a', value: `@${user.socialAUsername}` } : null,
    user.socialBUsername ? { label: 'social_b', value: `@${user.socialBUsername}` } : null,
    user.walletAddress ? { label: 'Wallet', value: user.walletAddress } : null,
  ].filter((i) => i !== null);
  if (items.length === 0) return null;
  return (
    <dl className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-xs" aria-label="Linked accounts">
      {items.map((i) => (
        <div key={i.label} className="flex min-w-0 items-baseline gap-1.5">
          <dt className="text-ink-faint">{i.label}</dt>
          <dd className={i.label === 'Wallet' ? 'min-w-0 font-mono break-all text-ink-muted' : 'text-ink-muted'}>{i.value}</dd>
        </div>
      ))}
    </dl>
  );
};

/** The profile header: avatar, names, bio and badges; `aside` holds balance or actions. */
export const ProfileCard = ({ user, actions, aside }: { user: TUser; actions?: ReactNode; aside?: ReactNode }) => (
  <Card isPadded={false} className="overflow-hidden">
    <div aria-hidden="true" className="h-24 bg-[radial-gradient(120%_140%_at_0%_0%,#8b93ff55,transparent_60%),radial-gradient(120%_140%_at_100%_0%,#3ddc9733,transparent_55%)] sm:h-28" />
    <div className="px-5 pb-6 sm:px-6">
      <div className="-mt-12 flex flex-wrap items-end justify-between gap-4">
        <Avatar src={user.profileImageUrl} name={user.displayName || user.username} size="xl" className="border-4 border-surface" />
        {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
      </div>
      <div className="mt-4 flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <h1 className="truncate text-2xl font-semibold tracking-tight text-ink">{user.displayName || user.username}</h1>
            {user.isActor && <Badge tone="accent">NPC actor</Badge>}
            {user.isAgent && <Badge tone="accent">Agent</Badge>}
            {/* An agent account is a bot by definition (its Agent badge says so); a player's bot trades by API key. */}
            {user.isBot && !user.isAgent && <BotBadge />}
            {user.isAdmin && <Badge tone="warn">Admin</Badge>}
          </div>
          <p className="mt-0.5 text-sm text-ink-muted">@{user.username}</p>
          {user.bio ? (
            <p className="mt-3 max-w-prose text-sm leading-relaxed whitespace-pre-line text-ink">{user.bio}</p>
          ) : null}
          <LinkedIdentities user={user} />
          <p className="mt-3 text-xs text-ink-faint">Joined {formatMonthYear(user.createdAt)}</p>
        </div>
        {aside}
      </div>
    </div>
  </Card>
);

export const ProfileSkeleton = () => (
  <div className="flex flex-col gap-6" role="status" aria-label="Loading profile">
    <div className="overflow-hidden rounded-2xl border border-line bg-surface">
      <div className="h-24 bg-elevated/60 sm:h-28" />
      <div className="px-6 pb-6">
        <div className="-mt-12 size-24 animate-pulse rounded-full border-4 border-surface bg-elevated" />
        <div className="mt-4 h-7 w-48 animate-pulse rounded-md bg-elevated" />
        <div className="mt-2 h-4 w-28 animate-pulse rounded-md bg-elevated" />
        <div className="mt-4 h-4 w-full max-w-md animate-pulse rounded-md bg-elevated" />
      </div>
    </div>
    <div className="grid grid-cols-3 gap-3 sm:grid-cols-6">
      {Array.from({ length: 6 }, (_, i) => (
        <div key={i} className="h-20 animate-pulse rounded-xl bg-elevated" />
      ))}
    </div>
  </div>
);
